"""Small helpers shared by the ai.onnx kernels (not kernels themselves)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def work_dtype(x: np.ndarray) -> np.dtype:
    """The dtype to compute in: half precision widens to float32, everything else stays."""
    if x.dtype == np.float16 or x.dtype.name == "bfloat16":
        return np.dtype(np.float32)
    return x.dtype


def legacy_broadcast(op: str, a: np.ndarray, b: np.ndarray, broadcast: int, axis: int | None) -> np.ndarray:
    """Reshape `b` for the opset-1/6 `broadcast`/`axis` rule: b's shape is a contiguous run of a's dims."""
    if not broadcast:
        if a.shape != b.shape:
            raise ValueError(f"{op}: shapes {a.shape} and {b.shape} differ and broadcast=0")
        return b
    if b.size == 1 and b.ndim <= a.ndim:  # a 1-element B ((), (1,), (1, 1) ...) is a scalar here
        return b.reshape(())
    start = a.ndim - b.ndim if axis is None else (axis + a.ndim if axis < 0 else axis)
    if start < 0 or start + b.ndim > a.ndim or a.shape[start:start + b.ndim] != b.shape:
        raise ValueError(f"{op}: B of shape {b.shape} does not match A {a.shape} at axis {start}")
    return b.reshape(b.shape + (1,) * (a.ndim - start - b.ndim))


def normalize_axes(op: str, axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """Negative axes made positive; out-of-range or repeated axes raise ValueError."""
    out = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise ValueError(f"{op}: axis {a} is out of range for rank {rank}")
        out.append(a + rank if a < 0 else a)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: repeated axes {list(axes)}")
    return tuple(out)


def numpy_dtype_of(op: str, element: str) -> np.dtype:
    """The numpy dtype of an ONNX element type name; Unsupported for those the reference does not compute in
    (bfloat16, float8, int4, string, complex ...: issue 10's), ValueError for a name ONNX does not know."""
    from conformance.backends.protocol import Unsupported
    from opset.cells import NUMPY_ELEMENTS
    from opset.dtypes import ELEMENT_TYPES, numpy_name

    if element not in ELEMENT_TYPES:
        raise ValueError(f"{op}: {element!r} is no ONNX element type")
    name = numpy_name(element)
    if element not in NUMPY_ELEMENTS or name is None:
        raise Unsupported(f"{op}: the reference kernels do not compute in {element}")
    return np.dtype(name)


def numpy_element_dtype(op: str, dtype: np.dtype) -> np.dtype:
    """`dtype` itself when it is an element type the reference computes in, else Unsupported (an ml_dtypes
    bfloat16, float8 or int4 array, a string or complex array)."""
    from conformance.backends.protocol import Unsupported
    from opset.dtypes import element_of_numpy

    element = element_of_numpy(dtype.name)
    if element is None:
        raise Unsupported(f"{op}: the reference kernels do not compute in {dtype}")
    return numpy_dtype_of(op, element)


def numpy_dtype_of_code(op: str, code: int) -> np.dtype:
    """The numpy dtype of a TensorProto DataType number (`to`, `dtype` attributes)."""
    from opset.dtypes import CODE_TO_ELEMENT

    if code not in CODE_TO_ELEMENT:
        raise ValueError(f"{op}: {code} is no TensorProto DataType")
    return numpy_dtype_of(op, CODE_TO_ELEMENT[code])


def convert_elements(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Cast's conversion between the types numpy holds.

    Floating point to fixed point truncates toward zero (the conversion of a value out of the target's range is
    undefined in ONNX); fixed point to fixed point keeps the low bits (two's complement); to bool, zero is false and
    everything else (NaN too) true; from bool, 1 and 0; to floating point, round to nearest even, with +/- infinity
    out of range. numpy's C casts do exactly this, so the one subtlety left is that a float in (-1, 0) truncates to
    zero before it meets an unsigned type.
    """
    with np.errstate(invalid="ignore", over="ignore"):
        source = np.trunc(x) if x.dtype.kind == "f" and dtype.kind in "iu" else x
        return np.asarray(source.astype(dtype))
