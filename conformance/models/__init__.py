"""Whole-model execution on the reference kernels (or any node executor): `run_model`, `ModelRunner`, `opset run`.

The runner's names load on first use (PEP 562): `opset run --help` imports `conformance.models.cli` through this
package, and the runner brings numpy, onnx and the kernels, which parsing the command line does not need.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.models.runner import (
        FeedError,
        ModelRunError,
        ModelRunner,
        NodeExecutor,
        NodeUnsupported,
        run_model,
    )

__all__ = ["FeedError", "ModelRunError", "ModelRunner", "NodeExecutor", "NodeUnsupported", "run_model"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from conformance.models import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'conformance.models' has no attribute '{name}'")
