"""Element types as numpy arrays: every ONNX element type the reference computes in, numpy's own and those
`ml_dtypes` adds (bfloat16, the float8 and float4/float6 formats, int4/uint4, int2/uint2), as onnx itself
represents them.

The reference kernels compute the `ml_dtypes` types in a wider type numpy has (`COMPUTE_AS`: floats in float32,
the small integers in int8/uint8) and round once to the narrow type: the result a correctly rounding backend gives.
"""

from __future__ import annotations

import functools
from typing import Any

import ml_dtypes
import numpy as np

from opset.dtypes import ELEMENT_TYPES

# ONNX element name -> the ml_dtypes type that holds it (names follow ml_dtypes, e.g. float8_e4m3fn)
_ML_DTYPES: dict[str, type] = {
    "bfloat16": ml_dtypes.bfloat16,
    "float8e4m3fn": ml_dtypes.float8_e4m3fn,
    "float8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "float8e5m2": ml_dtypes.float8_e5m2,
    "float8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "float8e8m0": ml_dtypes.float8_e8m0fnu,
    "float4e2m1": ml_dtypes.float4_e2m1fn,
    "float6e2m3": ml_dtypes.float6_e2m3fn,
    "float6e3m2": ml_dtypes.float6_e3m2fn,
    "uint4": ml_dtypes.uint4,
    "int4": ml_dtypes.int4,
    "uint2": ml_dtypes.uint2,
    "int2": ml_dtypes.int2,
}
ML_FLOATS = frozenset(e for e in _ML_DTYPES if not e.startswith(("int", "uint")))
ML_INTEGERS = frozenset(_ML_DTYPES) - ML_FLOATS
FLOATS = frozenset({"float16", "float", "double"}) | ML_FLOATS
COMPLEX = frozenset({"complex64", "complex128"})

# the wider numpy type each ml_dtypes type is computed in
COMPUTE_AS: dict[str, np.dtype] = {
    **{e: np.dtype(np.float32) for e in ML_FLOATS},
    "int4": np.dtype(np.int8), "int2": np.dtype(np.int8), "uint4": np.dtype(np.uint8), "uint2": np.dtype(np.uint8),
}


SUB_BYTE_BITS: dict[str, int] = {"int4": 4, "uint4": 4, "float4e2m1": 4, "int2": 2, "uint2": 2, "float6e2m3": 6,
                                  "float6e3m2": 6}


def bit_width(element: str) -> int:
    """Bits per element: a sub-byte type's own width (ml_dtypes keeps it in the low bits of one byte)."""
    return SUB_BYTE_BITS.get(element) or numpy_dtype(element).itemsize * 8


@functools.cache
def numpy_dtype(element: str) -> np.dtype:
    """The numpy dtype of an ONNX element name (`float` -> float32, `bfloat16` -> ml_dtypes.bfloat16);
    `string` is an object array of Python str. ValueError for a name ONNX does not know."""
    if element in _ML_DTYPES:
        return np.dtype(_ML_DTYPES[element])
    if element == "string":
        return np.dtype(object)
    if element not in ELEMENT_TYPES:
        raise ValueError(f"{element!r} is no ONNX element type")
    name = ELEMENT_TYPES[element][1]
    assert name is not None, element  # every element ml_dtypes does not hold has a numpy name
    return np.dtype(name)


@functools.cache
def _by_dtype() -> dict[np.dtype, str]:
    found: dict[np.dtype, str] = {}
    for element in ELEMENT_TYPES:
        if element != "string":
            found.setdefault(numpy_dtype(element), element)
    return found


def element_of(dtype: np.dtype) -> str | None:
    """numpy dtype -> ONNX element name (`float32` -> `float`, ml_dtypes' `float8_e4m3fn` -> `float8e4m3fn`,
    object or str -> `string`); None for a dtype ONNX has no element for."""
    dtype = np.dtype(dtype)
    if dtype.kind in "OU":
        return "string"
    return _by_dtype().get(dtype)


def is_ml_dtype(dtype: np.dtype) -> bool:
    """Is `dtype` one of the types ml_dtypes adds (computed in `COMPUTE_AS`)?"""
    element = element_of(dtype)
    return element is not None and element in _ML_DTYPES


def is_float_dtype(dtype: np.dtype) -> bool:
    """Is `dtype` a real floating-point type, numpy's or one ml_dtypes adds (whose numpy `kind` is 'V')?"""
    return element_of(dtype) in FLOATS


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype a kernel computes `dtype` values in: itself, or the wider numpy type of an ml_dtypes type."""
    element = element_of(dtype)
    return COMPUTE_AS.get(element, np.dtype(dtype)) if element is not None else np.dtype(dtype)


_ML_IINFO: Any = ml_dtypes.iinfo  # untyped in ml_dtypes
_ML_FINFO: Any = ml_dtypes.finfo


def integer_range(element: str) -> tuple[int, int]:
    """The smallest and largest value of an integer (or bool) element type, exactly."""
    dtype = numpy_dtype(element)
    if dtype.kind == "b":
        return 0, 1
    info = _ML_IINFO(dtype) if element in ML_INTEGERS else np.iinfo(dtype)
    return int(info.min), int(info.max)


def finite_range(element: str) -> tuple[float, float]:
    """The smallest and largest finite value of a float or integer element type (for float8e8m0, which has no
    sign, the smallest is its least positive value)."""
    dtype = numpy_dtype(element)
    if element in ML_FLOATS:
        info = _ML_FINFO(dtype)
        return float(info.min), float(info.max)
    if element in ML_INTEGERS or dtype.kind in "iub":
        low, high = integer_range(element)
        return float(low), float(high)
    finfo = np.finfo(dtype)
    return float(finfo.min), float(finfo.max)
