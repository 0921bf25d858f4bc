"""Helpers the com.microsoft quantized (QLinear*, QGemm, *Integer) kernels share.

The QLinear* kernels follow onnxruntime's CPU arithmetic step by step in float32, because their integer
outputs are compared exactly: where onnxruntime rounds an intermediate to float32 (a scale ratio, a
dequantized value, a fused multiply-add) these helpers round at the same place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import overload

import numpy as np

EIGHT_BIT = (np.dtype(np.int8), np.dtype(np.uint8))


@overload
def scalar_param(op: str, name: str, value: np.ndarray, dtype: np.dtype | None = None) -> np.ndarray: ...


@overload
def scalar_param(op: str, name: str, value: None, dtype: np.dtype | None = None) -> None: ...


@overload
def scalar_param(op: str, name: str, value: np.ndarray | None, dtype: np.dtype | None = None) -> np.ndarray | None: ...


def scalar_param(op: str, name: str, value: np.ndarray | None, dtype: np.dtype | None = None) -> np.ndarray | None:
    """A per-tensor quantization parameter: one element of rank 0 or 1, returned as a 0-d array (None stays None);
    ValueError otherwise, or when `dtype` is given and the value has another type."""
    if value is None:
        return None
    if value.size != 1 or value.ndim > 1:
        raise ValueError(f"{op}: {name} must be a scalar or a 1-element 1-D tensor, got shape {value.shape}")
    if dtype is not None and value.dtype != dtype:
        raise ValueError(f"{op}: {name} must be of the data's type {dtype}, got {value.dtype}")
    return value.reshape(())


def eight_bit(op: str, x: np.ndarray) -> np.dtype:
    """x's dtype when it is int8 or uint8, else ValueError."""
    if x.dtype not in EIGHT_BIT:
        raise ValueError(f"{op}: expected int8 or uint8 data, got {x.dtype}")
    return x.dtype


def f32(x: object) -> np.ndarray:
    return np.asarray(x, dtype=np.float32)


def fma32(a: object, b: object, c: object) -> np.ndarray:
    """float32 fused multiply-add, a * b + c rounded once: the product of two float32 values is exact in float64
    and the sum is exact there for the magnitudes quantized data reach, so one rounding to float32 remains."""
    return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)).astype(np.float32)


def saturate(v: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """round half to even, then clip to `dtype`'s range."""
    info = np.iinfo(dtype)
    return np.asarray(np.clip(np.rint(np.asarray(v, np.float64)), info.min, info.max).astype(dtype))


def zero_point_value(zero_point: np.ndarray | None) -> int:
    return 0 if zero_point is None else int(zero_point)


def dequantized(values: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None) -> np.ndarray:
    """scale * (x - zero_point) as onnxruntime dequantizes one value: the integer difference converted to float32,
    times the float32 scale, rounded once."""
    diff = values.astype(np.int32) - zero_point_value(zero_point)
    return f32(f32(scale) * diff.astype(np.float32))


def quantized(y: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None, dtype: np.dtype) -> np.ndarray:
    """onnxruntime's QuantizeLinear of float32 values: y / scale in float32, rounded half to even, plus the zero
    point, saturated to `dtype`."""
    q = np.rint(f32(f32(y) / f32(scale))).astype(np.float64) + zero_point_value(zero_point)
    return saturate(q, dtype)


def lookup_table(dtype: np.dtype, x_scale: np.ndarray, x_zero_point: np.ndarray | None, y_scale: np.ndarray,
                 y_zero_point: np.ndarray | None, fn: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The 256-entry table onnxruntime's 8-bit lookup ops build: every value of `dtype` dequantized, mapped by `fn`
    (float32 in, float32 out), quantized again. Index it with `x.astype(np.int64) - iinfo(dtype).min`."""
    info = np.iinfo(dtype)
    every = np.arange(info.min, info.max + 1, dtype=np.int32)
    return quantized(fn(dequantized(every, x_scale, x_zero_point)), y_scale, y_zero_point, dtype)


def apply_table(table: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.asarray(table[x.astype(np.int64) - int(np.iinfo(x.dtype).min)])


def requantized(op: str, x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None,
                y_scale: np.ndarray, y_zero_point: np.ndarray | None) -> np.ndarray:
    """x moved from its own scale and zero point to the output's, through the identity table (QLinearConcat,
    QLinearWhere): dequantized in float32, divided by the output scale, rounded half to even, saturated."""
    del op
    return apply_table(lookup_table(x.dtype, x_scale, x_zero_point, y_scale, y_zero_point, lambda v: v), x)
