"""The `onnxruntime` backend: one single-threaded InferenceSession per distinct one-node model.

onnxruntime's Python API holds no ml_dtypes arrays: bfloat16 and float8 values go in as OrtValues made from their
bytes with their ONNX type, and come out copied byte for byte into ml_dtypes arrays; 4-bit and 2-bit outputs come out
as their packed bytes, unpacked by onnx's reader. It takes no unpacked 4-bit or 2-bit arrays as inputs at all, so cases
with such inputs are unsupported here (the API's limit, not onnxruntime's kernels').
"""

from __future__ import annotations

import ctypes
import hashlib
import math
from collections import OrderedDict
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from conformance.containers import as_value
from conformance.element_types import ML_FLOATS, SUB_BYTE_BITS, element_of, is_ml_dtype, numpy_dtype
from opset.dtypes import ELEMENT_TYPES, tensor_element

ML_TYPES = ML_FLOATS - SUB_BYTE_BITS.keys()  # the ml_dtypes types onnxruntime's OrtValues hold byte for byte
# the types its Python API cannot turn into numpy ("No corresponding Numpy type"), read here from the OrtValue's bytes
OUT_CODES = frozenset(ELEMENT_TYPES[e][0] for e in ML_TYPES | SUB_BYTE_BITS.keys() if e in ELEMENT_TYPES)

UNSUPPORTED_MARKERS = ("not_implemented", "not implemented", "no op registered", "unsupported", "not supported",
                       "could not find an implementation", "is not a registered function/op",
                       "op registered for",  # "Op registered for Upsample is deprecated in domain_version of 10"
                       "is not currently registered")
CUSTOM_DOMAINS = ("ai.onnx.modified", "tengine")  # ops onnxruntime has never heard of


def is_unsupported_message(text: str) -> bool:
    lowered = text.lower()
    return any(marker in lowered for marker in UNSUPPORTED_MARKERS)


class OnnxRuntimeBackend:
    """`run(model, feeds)`; load errors that say "not implemented" become Unsupported."""

    name = "onnxruntime"  # its identity: the expectations file it is checked with (onnxruntime.backend's too)

    def __init__(self, cache_size: int = 64) -> None:
        import onnxruntime

        self._ort = onnxruntime
        self._sessions: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_size

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain not in CUSTOM_DOMAINS

    def run(self, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        from conformance.backends.protocol import Unsupported

        unfed = [name for name, x in feeds.items() if isinstance(x, dict) and not _feedable_map(x)]
        if unfed:  # the Python API's limit, not onnxruntime's kernels'
            raise Unsupported(f"onnxruntime's Python API feeds only non-empty maps of float values "
                              f"({', '.join(unfed)})")
        data = model.SerializeToString()
        key = hashlib.sha1(data).hexdigest()
        session = self._sessions.get(key)
        if session is None:
            options = self._ort.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            try:
                session = self._ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
            except Exception as e:  # onnxruntime raises its own exception classes per status code
                if is_unsupported_message(str(e)):
                    raise Unsupported(str(e).splitlines()[0]) from e
                raise
            self._sessions[key] = session
            if len(self._sessions) > self._cache_size:
                self._sessions.popitem(last=False)
        try:
            # an ml_dtypes output needs OrtValues too, even where every input is a numpy type (If's branches)
            ml_out = any(o.type.tensor_type.elem_type in OUT_CODES for o in model.graph.output)
            if not ml_out and not any(isinstance(x, np.ndarray) and is_ml_dtype(x.dtype) for x in feeds.values()):
                # sequences come back as lists, optionals as None or their value, maps as dicts
                return [self._from_ort(x) if isinstance(x, self._ort.OrtValue) else as_value(x)
                        for x in session.run(None, feeds)]
            values = {name: self._to_ort(name, x) for name, x in feeds.items()}
            return [self._from_ort(x) for x in session.run_with_ort_values(None, values)]
        except Exception as e:  # a kernel that declares an attribute combination unsupported at run time
            if is_unsupported_message(str(e)):
                raise Unsupported(str(e).splitlines()[0]) from e
            raise

    def _to_ort(self, name: str, x: Any) -> Any:
        from conformance.backends.protocol import Unsupported

        if isinstance(x, np.ndarray) and x.dtype.kind == "O":
            raise Unsupported(f"input '{name}' is a string tensor: onnxruntime's Python API makes no OrtValue of one, "
                              "and a node with an ml_dtypes input needs OrtValues for every input")
        if not (isinstance(x, np.ndarray) and is_ml_dtype(x.dtype)):
            return self._ort.OrtValue.ortvalue_from_numpy(_contiguous(x))
        element = element_of(x.dtype)
        assert element is not None
        if element in SUB_BYTE_BITS:
            raise Unsupported(f"input '{name}' is {element}: onnxruntime's Python API takes no unpacked "
                              f"{SUB_BYTE_BITS[element]}-bit arrays")
        raw = _contiguous(x).view(np.uint16 if x.dtype.itemsize == 2 else np.uint8)
        return self._ort.OrtValue.ortvalue_from_numpy_with_onnx_type(raw, ELEMENT_TYPES[element][0])

    @staticmethod
    def _from_ort(value: Any) -> Any:
        """An OrtValue as numpy: its own conversion, or its bytes as the ml_dtypes type it holds. A 4-bit or 2-bit
        tensor's bytes are packed as in an ONNX TensorProto's raw_data (element 0 in the lowest bits), so onnx's own
        reader unpacks them."""
        element = tensor_element(value.data_type())
        if element is not None and element in SUB_BYTE_BITS:
            shape = value.shape()
            nbytes = -(-math.prod(shape) * SUB_BYTE_BITS[element] // 8)
            raw = ctypes.string_at(value.data_ptr(), nbytes) if nbytes else b""
            return numpy_helper.to_array(helper.make_tensor("packed", ELEMENT_TYPES[element][0], shape, raw, raw=True))
        if element is None or element not in ML_TYPES:
            return np.asarray(value.numpy())
        out = np.empty(value.shape(), dtype=numpy_dtype(element))
        if out.nbytes:
            ctypes.memmove(out.ctypes.data, value.data_ptr(), out.nbytes)
        return out


def _contiguous(x: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of `x` where needed, keeping its rank (np.ascontiguousarray makes a 0-d array 1-d)."""
    return np.require(x, requirements="C")
def _feedable_map(x: dict[Any, Any]) -> bool:
    """Whether onnxruntime's Python API can feed this map: it turns a dict into map(string|int64, float) (other
    value types arrive as floats or not at all) and refuses an empty one."""
    return bool(x) and all(isinstance(v, float | np.float32) and not isinstance(v, np.float64) for v in x.values())
