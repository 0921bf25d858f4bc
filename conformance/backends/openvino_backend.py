"""The `openvino` backend (extra `.[openvino]`): OpenVINO's ONNX frontend and CPU plugin on a one-node model.

The model is read from its bytes and compiled for the CPU in accuracy mode (`EXECUTION_MODE_HINT: ACCURACY`, one
thread): without it the CPU plugin may compute float32 models in bfloat16 on processors that have it, which is a
choice of speed over the op's meaning, not what a conformance check asks about. Parameter inputs (Reshape's shape,
TopK's K ...) arrive as initializers by default (`constant_inputs = "params"`), as in the models OpenVINO reads.

Element types: OpenVINO's Python API reads an ml_dtypes array by its item size (a bfloat16 array as float16) and gives
bfloat16 and float8 back as raw bits, 4-bit tensors as packed nibbles; this adapter passes and reads them through
`element_bridge` (raw bits with the OpenVINO type named, nibbles packed as ONNX packs them, element 0 low). String
tensors go in as numpy str arrays (its API refuses object arrays).

Unsupported: only the frontend's and the plugin's own words for an op, element type or attribute they cannot convert
or compile (`UNSUPPORTED_MARKERS`); everything else OpenVINO raises is a failure, with its whole message.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np
import onnx

from conformance.backends.element_bridge import from_raw_bits, ml_element, packed, raw_bits, unpacked
from conformance.backends.library import raise_unsupported_if, require
from conformance.backends.protocol import Unsupported
from conformance.element_types import SUB_BYTE_BITS

# ONNX element -> OpenVINO type name, for the ml_dtypes types OpenVINO has (it has no float8 fnuz types and no int2)
OV_TYPES = {"bfloat16": "bf16", "float8e4m3fn": "f8e4m3", "float8e5m2": "f8e5m2", "float8e8m0": "f8e8m0",
            "float4e2m1": "f4e2m1", "int4": "i4", "uint4": "u4", "uint2": "u2"}
ONNX_ELEMENTS = {ov: onnx_name for onnx_name, ov in OV_TYPES.items()}
# the frontend's and the CPU plugin's words for "cannot convert or compile this" (never a wrong answer)
UNSUPPORTED_MARKERS = (
    "No conversion rule found for operations",  # the ONNX frontend has no converter for the op (or this version)
    "Unsupported data type",  # the ONNX frontend has no OpenVINO type for a tensor's element type
    "unsupported src_prc",  # the CPU plugin's eltwise kernels take no such element type (f8)
    "Unsupported operation of type",  # the CPU plugin has no kernel for the node (a Convert from string ...)
    "CPU plugin does not support",  # "... string for use with oneDNN" (a Concat of strings)
    "Unsupported padding mode",  # the ONNX frontend's Pad converter: wrap
    "Input element type must be",  # a converter's element types (Resize on bool, int16, uint16 ...)
    "mode is not supported",  # Resize's tf_crop_and_resize coordinate transformation mode
    "only supports resize on spatial dimensions",  # the CPU plugin's Interpolate (not batch or channels)
)
CUSTOM_DOMAINS = ("ai.onnx.modified", "tengine")  # domains no ONNX runtime has heard of
CONFIG = {"EXECUTION_MODE_HINT": "ACCURACY", "INFERENCE_NUM_THREADS": 1}


class OpenVinoBackend:
    """`run(model, feeds)` through `Core.read_model`, `compile_model(..., "CPU")` and one infer request."""

    name = "openvino"
    constant_inputs = "params"

    def __init__(self, cache_size: int = 16) -> None:
        self._ov = require("openvino", "openvino", "openvino")
        self._core = self._ov.Core()
        self._compiled: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_size

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain not in CUSTOM_DOMAINS

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
        compiled = self._compile(model)
        # OpenVINO drops a graph input that no asked-for output reads (BatchNormalization in training mode without
        # the running_var output has no input_var) and refuses a tensor for it: feed only the inputs it kept (a
        # kept input left out is still an error of the infer request)
        kept = {name for port in compiled.inputs for name in port.get_names()}
        tensors = {name: self._tensor(name, x) for name, x in feeds.items() if name in kept}
        request = compiled.create_infer_request()
        request.infer(tensors)
        return [self._array(request.get_output_tensor(i)) for i in range(len(compiled.outputs))]

    def _compile(self, model: onnx.ModelProto) -> Any:
        data = model.SerializeToString()
        key = hashlib.sha1(data).hexdigest()
        compiled = self._compiled.get(key)
        if compiled is not None:
            self._compiled.move_to_end(key)
            return compiled
        try:
            read = self._core.read_model(data, b"")
        except RuntimeError as e:
            raise_unsupported_if(e, str(e), UNSUPPORTED_MARKERS, "OpenVINO cannot read the model")
            raise
        try:
            compiled = self._core.compile_model(read, "CPU", CONFIG)
        except RuntimeError as e:
            raise_unsupported_if(e, str(e), UNSUPPORTED_MARKERS, "OpenVINO cannot compile the model")
            raise
        self._compiled[key] = compiled
        if len(self._compiled) > self._cache_size:
            self._compiled.popitem(last=False)
        return compiled

    def _tensor(self, name: str, x: Any) -> Any:
        """An input as an OpenVINO Tensor: numpy types as they are, ml_dtypes ones as their bits with the type named,
        strings as a str array."""
        ov = self._ov
        if not isinstance(x, np.ndarray):
            raise Unsupported(f"input '{name}' is a {type(x).__name__}: OpenVINO's infer request takes tensors only")
        if x.dtype.kind == "O":
            return ov.Tensor(np.array(x.tolist(), dtype=str).reshape(x.shape))
        element = ml_element(x)
        if element is None:
            return ov.Tensor(np.require(x, requirements="C"))
        if element not in OV_TYPES:
            raise Unsupported(f"input '{name}' is {element}: OpenVINO has no such element type")
        ov_type = getattr(ov.Type, OV_TYPES[element])
        data = packed(x) if element in SUB_BYTE_BITS else raw_bits(x)
        return ov.Tensor(data, list(x.shape), ov_type)

    def _array(self, tensor: Any) -> np.ndarray:
        """An output Tensor as numpy: its own array for numpy's types, its bits (or packed nibbles) as the ml_dtypes
        type it holds, strings as str."""
        type_name = tensor.element_type.get_type_name()
        shape = tuple(int(d) for d in tensor.shape)
        if type_name == "string":
            return np.array(tensor.str_data, dtype=object).reshape(shape)
        element = ONNX_ELEMENTS.get(type_name)
        if element is None:
            return np.array(tensor.data, copy=True).reshape(shape)
        if element in SUB_BYTE_BITS:
            return unpacked(np.array(tensor.data, copy=True), element, shape)
        return from_raw_bits(np.array(tensor.data, copy=True), element).reshape(shape)
