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
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["pb"]

_PRIVATE_NAME = "opset._onnx_ml_pb2"


def _load() -> ModuleType:
    """onnx's generated module: run from onnx's file under a private name where that gives onnx's own classes (onnx
    not imported yet, protobuf on upb), else imported from onnx."""
    kept = sys.modules.get(_PRIVATE_NAME)
    if kept is not None:
        return kept
    spec = importlib.util.find_spec("onnx") if "onnx" not in sys.modules else None  # finds it without running it
    locations = spec.submodule_search_locations if spec is not None else None
    module_spec = importlib.util.spec_from_file_location(
        _PRIVATE_NAME, Path(next(iter(locations))) / "onnx_ml_pb2.py") if locations else None
    if module_spec is None or module_spec.loader is None or _protobuf_runtime() != "upb":
        from onnx import onnx_ml_pb2  # an ImportError says onnx is missing

        return onnx_ml_pb2
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
