"""Shrink: x + bias for x < -lambd, x - bias for x > lambd, 0 otherwise.

Integer inputs are computed exactly: trunc(x +- bias) (toward zero) wrapped into the type modulo 2^bits.
onnx.reference computes in double and onnxruntime in single precision, which agree with this wherever the
values fit their mantissa (|x| below 2^53, resp. 2^24).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _below_int(x: np.ndarray, bound: int) -> np.ndarray:
    """x < bound for an integer array x and a Python int bound of any size."""
    info = np.iinfo(x.dtype)
    if bound > info.max:
        return np.ones(x.shape, bool)
    if bound <= info.min:
        return np.zeros(x.shape, bool)
    return np.asarray(x < np.asarray(bound, dtype=x.dtype))


def _below(x: np.ndarray, t: float) -> np.ndarray:
    """x < t exactly, for an integer array x and any float t."""
    if math.isnan(t) or math.isinf(t):
        return np.full(x.shape, t > 0)
    if t != math.floor(t):
        # a fractional t is below 2^52 in magnitude: where x rounds in double, |x| > |t| and the order holds
        return np.asarray(x.astype(np.float64) < t)
    return _below_int(x, int(t))


def _above(x: np.ndarray, t: float) -> np.ndarray:
    """x > t exactly, for an integer array x and any float t."""
    if math.isnan(t) or math.isinf(t):
        return np.full(x.shape, t < 0)
    if t != math.floor(t):
        return np.asarray(x.astype(np.float64) > t)
    return ~_below_int(x, int(t) + 1)


def _shifted(x: np.ndarray, c: float) -> np.ndarray:
    """trunc(x + c) wrapped into x's type, exactly: x + floor(c), plus 1 where c is fractional and x + c < 0."""
    if not math.isfinite(c):
        raise ValueError(f"Shrink: bias {c} is not finite, so x +- bias has no integer value")
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    whole = math.floor(c)  # exact (a Python int)
    step = np.asarray(whole % 2 ** (8 * x.dtype.itemsize), dtype=unsigned)
    y = x.view(unsigned) + step  # unsigned addition wraps modulo 2^bits
    if c != whole:  # x + c < 0 exactly when x + floor(c) < 0, i.e. x < -floor(c); trunc then rounds up
        y = y + _below_int(x, -whole).astype(unsigned)
    return np.asarray(y.view(x.dtype))


@kernel("ai.onnx", "Shrink", since=9)
def shrink(x: np.ndarray, *, bias: float, lambd: float) -> tuple[np.ndarray, ...]:
    if x.dtype.kind in "iu":
        zero = np.zeros((), x.dtype)
        low, high = _below(x, -lambd), _above(x, lambd)
        y = np.where(low, _shifted(x, bias) if low.any() else zero,
                     np.where(high, _shifted(x, -bias) if high.any() else zero, zero))
        return (y,)
    xw = x.astype(work_dtype(x), copy=False)
    wide = x.astype(np.float64)  # the comparisons are exact: lambd is not rounded to a half-precision x
    y = np.where(wide < -lambd, xw + bias, np.where(wide > lambd, xw - bias, 0))
    return (y.astype(x.dtype, copy=False),)
