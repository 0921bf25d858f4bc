"""Shrink: x + bias for x < -lambd, x - bias for x > lambd, 0 otherwise.

Integer inputs: x +- bias is computed in double precision, truncated toward zero and wrapped into the
type (two's complement), as onnx.reference and onnxruntime do for the values they can hold.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel

_TWO_63 = 2.0**63
_TWO_64 = 2.0**64


def _wrapped(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Integer-valued doubles wrapped into `dtype` modulo 2^bits (exact for every double)."""
    if not np.all(np.isfinite(values)):
        raise ValueError("Shrink: x +- bias is not finite, so it has no integer value")
    folded = np.fmod(values, _TWO_64)  # exact; |folded| < 2^64, sign of values
    folded = np.where(folded >= _TWO_63, folded - _TWO_64, folded)
    folded = np.where(folded < -_TWO_63, folded + _TWO_64, folded)
    return folded.astype(np.int64).astype(dtype)  # int64 -> narrower (or unsigned) types wraps


@kernel("ai.onnx", "Shrink", since=9)
def shrink(x: np.ndarray, *, bias: float, lambd: float) -> tuple[np.ndarray, ...]:
    if x.dtype.kind in "iu":
        xw = x.astype(np.float64)
        y = np.where(xw < -lambd, xw + bias, np.where(xw > lambd, xw - bias, 0.0))
        return (_wrapped(np.trunc(y), x.dtype),)
    xw = x.astype(work_dtype(x), copy=False)
    wide = x.astype(np.float64)  # the comparisons are exact: lambd is not rounded to a half-precision x
    y = np.where(wide < -lambd, xw + bias, np.where(wide > lambd, xw - bias, 0))
    return (y.astype(x.dtype, copy=False),)
