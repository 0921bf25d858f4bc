"""com.microsoft Range: start, start + delta, ... short of limit, as onnxruntime computes it.

The count is `max(ceil((limit - start) / delta), 0)` with the difference taken in T and the division in double;
floating-point values accumulate `value += delta` in T (ai.onnx Range in the registry computes `start + i * delta`).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


def _scalar(name: str, x: np.ndarray) -> np.ndarray:
    if x.ndim > 1 or x.size != 1:
        raise ValueError(f"Range: {name} must be a scalar, it has shape {list(x.shape)}")
    return x.reshape(())


@kernel("com.microsoft", "Range", since=1)
def range_(start: np.ndarray, limit: np.ndarray, delta: np.ndarray | None) -> tuple[np.ndarray, ...]:
    dtype = start.dtype
    d = _scalar("delta", delta) if delta is not None else np.ones((), dtype=dtype)
    s, lim = _scalar("start", start), _scalar("limit", limit)
    if lim.dtype != dtype or d.dtype != dtype:
        raise ValueError(f"Range: start, limit and delta must share one type, got {dtype}, {lim.dtype}, {d.dtype}")
    if d == 0:
        raise ValueError("Range: delta must not be 0")
    if dtype.kind in "iu":
        a, b, step = int(s), int(lim), int(d)
        count = max(-((a - b) // step), 0)  # ceil((b - a) / step) in exact integers
        return (np.asarray(a + step * np.arange(count, dtype=np.int64)).astype(dtype),)
    count = max(math.ceil(float(lim - s) / float(d)), 0)
    steps = np.full(count, d, dtype=dtype)
    if count:
        steps[0] = s
    return (np.cumsum(steps, dtype=dtype),)  # value += delta, rounded to T at every step
