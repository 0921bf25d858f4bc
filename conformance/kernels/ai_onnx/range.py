"""Range: start, start + delta, ... while short of limit; max(ceil((limit - start) / delta), 0) elements.

Integers are exact. Floating point computes `start + i * delta` in double and rounds once to T (float16 from
opset 27 in its `stash_type`: float, or double), the count in double.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.ai_onnx._common import numpy_dtype_of_code
from conformance.kernels.registry import kernel


def _scalar(name: str, x: np.ndarray) -> np.ndarray:
    # a one-element tensor reads as its element, as onnxruntime and onnx.reference read it (onnx's own AffineGrid
    # function body hands Range [1]-shaped limits, through If)
    if x.size != 1 or x.ndim > 1:
        raise ValueError(f"Range: {name} must be a scalar, it has shape {list(x.shape)}")
    return x.reshape(())


def _range(start: np.ndarray, limit: np.ndarray, delta: np.ndarray, work: np.dtype | None) -> np.ndarray:
    dtype = start.dtype
    if limit.dtype != dtype or delta.dtype != dtype:
        raise ValueError(f"Range: start, limit and delta must share one type, got {start.dtype}, {limit.dtype}, "
                         f"{delta.dtype}")
    s, lim, d = _scalar("start", start), _scalar("limit", limit), _scalar("delta", delta)
    if d == 0:
        raise ValueError("Range: delta must not be 0")
    if dtype.kind in "iu":
        a, b, step = int(s), int(lim), int(d)
        count = max(-((a - b) // step), 0)  # ceil((b - a) / step) in exact integers
        return np.asarray((a + step * np.arange(count, dtype=np.int64)).astype(dtype))
    count = max(math.ceil((float(lim) - float(s)) / float(d)), 0)
    work = work or np.dtype(np.float64)
    steps = np.arange(count, dtype=work)
    return np.asarray((s.astype(work) + steps * d.astype(work)).astype(dtype))


@kernel("ai.onnx", "Range", since=11, until=26)
def range_(start: np.ndarray, limit: np.ndarray, delta: np.ndarray) -> tuple[np.ndarray, ...]:
    return (_range(start, limit, delta, None),)


@kernel("ai.onnx", "Range", since=27)
def range_stash(start: np.ndarray, limit: np.ndarray, delta: np.ndarray, *, stash_type: int) -> tuple[np.ndarray, ...]:
    work = numpy_dtype_of_code("Range", stash_type) if start.dtype == np.float16 else None
    return (_range(start, limit, delta, work),)
