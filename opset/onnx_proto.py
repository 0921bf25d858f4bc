"""ONNX's protobuf classes (`pb.ModelProto`, `pb.TensorProto` ...) without `import onnx` on the validator's path.

`import onnx` imports numpy, onnx's helpers, its reference-free checker bindings and protobuf's JSON support: about
100 ms of a cold `opset validate`, where onnx's own one-liner spends its whole budget. The classes themselves live in
onnx's generated module `onnx/onnx_ml_pb2.py`, which needs protobuf alone (about 15 ms).

When `onnx` is not imported yet and protobuf runs on upb (one message class per descriptor: `onnx.ModelProto`,
imported later, is the very class this module hands out, and onnx's second registration of the same file in the
descriptor pool is accepted), the generated module is executed from onnx's installed file under a private name.
In every other case it is onnx's own `onnx.onnx_ml_pb2`. Either way `pb.ModelProto is onnx.ModelProto` once both are
imported (tests/validate/test_onnx_proto.py holds that in a fresh process).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

__all__ = ["pb"]

_PRIVATE_NAME = "opset._onnx_ml_pb2"


def _load():  # type: ignore[no-untyped-def]  # the module's type is onnx_ml_pb2's, given below for type checkers
    if "onnx" in sys.modules or _protobuf_runtime() != "upb":
        from onnx import onnx_ml_pb2
        return onnx_ml_pb2
    kept = sys.modules.get(_PRIVATE_NAME)
    if kept is not None:
        return kept
    spec = importlib.util.find_spec("onnx")  # finds the package without executing it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("onnx is not installed (opset needs it to read models)")
    source = Path(next(iter(spec.submodule_search_locations))) / "onnx_ml_pb2.py"
    module_spec = importlib.util.spec_from_file_location(_PRIVATE_NAME, source)
    if module_spec is None or module_spec.loader is None:
        from onnx import onnx_ml_pb2 as own
        return own
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[_PRIVATE_NAME] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[_PRIVATE_NAME]
        raise
    return module


def _protobuf_runtime() -> str:
    from google.protobuf.internal import api_implementation
    return str(api_implementation.Type())


if TYPE_CHECKING:
    from onnx import onnx_ml_pb2 as pb
else:
    pb = _load()
