"""The `onnx2torch` backend (extra `.[torch]`): onnx2torch converts the one-node model to a torch.fx module, which
runs on the CPU build of torch, in eval mode and without grad, as one runs a model for inference.

onnx2torch builds torch modules from a node's constant inputs (a Conv's weights become an nn.Conv2d's, a Reshape's
shape is read when converting), so parameter and weight inputs arrive as initializers by default
(`constant_inputs = "all"`), as in the models it converts. Its converters exist per (op, opset version): a version it
has none for is reported unsupported with its own message ("Converter is not implemented").

Element types: torch has bfloat16 and the float8 types but no constructor from ml_dtypes arrays; they go in and come
out as their raw bits (`element_bridge`), viewed as the torch type. torch has no 4-bit or 2-bit tensors, so cases
with such inputs are unsupported here.

torchvision: onnx2torch imports it (for NonMaxSuppression and RoiAlign). The torchvision wheels on PyPI are built
against CUDA torch and fail to import beside the CPU build ("operator torchvision::nms does not exist"); then a
stand-in module takes its place, whose `ops` raise NotImplementedError naming that reason, so those two ops are
unsupported and every other converter works.

Unsupported: onnx2torch's NotImplementedError (and torch's, for a kernel it lacks for an element type), and its own
words for a node it cannot convert (`UNSUPPORTED_MARKERS`, at conversion only); everything else is a failure.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
import onnx

from conformance.backends.element_bridge import from_raw_bits, ml_element, raw_bits
from conformance.backends.library import raise_unsupported_if, require
from conformance.backends.protocol import Unsupported

# onnx2torch's words (at conversion) for a node it cannot convert, besides NotImplementedError
UNSUPPORTED_MARKERS = (
    "is not found in constant values",  # an input its converter needs as an initializer
    "parameter must be",  # an activation attribute it supports only at its default (Selu's alpha ...)
    "is not supported",  # utils/dtype.py: an element type torch has no dtype for
    "does not support",  # an attribute value a converter refuses (GatherND batch_dims, Shape start/end)
    "can't convert np.ndarray of type",  # torch.from_numpy on a constant of an ml_dtypes type (a bfloat16 Clip min)
)
CUSTOM_DOMAINS = ("ai.onnx.modified", "tengine")
# ONNX element -> torch dtype name, for the ml_dtypes types torch has
TORCH_TYPES = {"bfloat16": "bfloat16", "float8e4m3fn": "float8_e4m3fn", "float8e5m2": "float8_e5m2",
               "float8e4m3fnuz": "float8_e4m3fnuz", "float8e5m2fnuz": "float8_e5m2fnuz",
               "float8e8m0": "float8_e8m0fnu"}
_SIGNED_OF_SIZE = {1: "int8", 2: "int16"}


def stand_in_for_torchvision() -> str | None:
    """Import torchvision; when it is installed but fails to import (a CUDA build beside the CPU torch), put a
    stand-in in its place whose ops raise NotImplementedError, and return why. None when it imports (or is absent:
    onnx2torch's own import then says so)."""
    try:
        import torchvision  # noqa: F401  (onnx2torch imports it; only whether it imports matters here)
    except ImportError:
        return None
    except RuntimeError as e:
        reason = str(e).strip().splitlines()[0]
        for name in [n for n in sys.modules if n == "torchvision" or n.startswith("torchvision.")]:
            del sys.modules[name]
        package, ops = types.ModuleType("torchvision"), types.ModuleType("torchvision.ops")

        def missing(*args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError(f"torchvision does not import beside this torch ({reason}); onnx2torch's "
                                      "NonMaxSuppression and RoiAlign need its ops")

        for function in ("nms", "roi_align", "box_convert", "batched_nms"):
            setattr(ops, function, missing)
        package.ops = ops  # type: ignore[attr-defined]
        sys.modules["torchvision"], sys.modules["torchvision.ops"] = package, ops
        return reason
    return None


class Onnx2TorchBackend:
    """`run(model, feeds)`: `onnx2torch.convert(model)`, then the module called on torch tensors, without grad."""

    name = "onnx2torch"
    constant_inputs = "all"

    def __init__(self) -> None:
        self._torch = require("torch", "onnx2torch", "torch")
        self.torchvision_missing = stand_in_for_torchvision()
        self._onnx2torch = require("onnx2torch", "onnx2torch", "torch")
        self._torch.set_num_threads(1)

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain not in CUSTOM_DOMAINS

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[np.ndarray]:
        names = [i.name for i in model.graph.input]
        tensors = [self._tensor(name, feeds.get(name)) for name in names]
        try:
            module = self._onnx2torch.convert(model)
        except NotImplementedError:
            raise
        except Exception as e:  # onnx2torch raises ValueError, KeyError, RuntimeError for what it cannot convert
            raise_unsupported_if(e, str(e), UNSUPPORTED_MARKERS, "onnx2torch cannot convert the model")
            raise
        module.eval()  # inference: BatchNormalization with its running statistics, Dropout passing through
        with self._torch.no_grad():
            result = module(*tensors)
        outputs = list(result) if isinstance(result, tuple | list) else [result]
        return [self._array(y) for y in outputs]

    def _tensor(self, name: str, x: Any) -> Any:
        torch = self._torch
        if not isinstance(x, np.ndarray) or x.dtype.kind in "OUS":
            raise Unsupported(f"input '{name}' is {getattr(x, 'dtype', type(x).__name__)}: torch has no such tensors")
        element = ml_element(x)
        if element is None:
            return torch.from_numpy(np.array(x, copy=True, order="C"))
        if element not in TORCH_TYPES or not hasattr(torch, TORCH_TYPES[element]):
            raise Unsupported(f"input '{name}' is {element}: torch has no such tensors")
        bits = raw_bits(x).view(_SIGNED_OF_SIZE[x.dtype.itemsize])
        return torch.from_numpy(np.array(bits, copy=True)).view(getattr(torch, TORCH_TYPES[element]))

    def _array(self, y: Any) -> Any:
        torch = self._torch
        if not isinstance(y, torch.Tensor):
            return y
        y = y.detach().cpu()
        for element, dtype_name in TORCH_TYPES.items():
            if hasattr(torch, dtype_name) and y.dtype == getattr(torch, dtype_name):
                signed = getattr(torch, _SIGNED_OF_SIZE[y.element_size()])
                return from_raw_bits(y.contiguous().view(signed).numpy(), element)
        return y.numpy().copy()
