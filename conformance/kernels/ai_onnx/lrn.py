"""LRN: X / (bias + alpha / size * square_sum) ** beta, the square sum over a window of channels.

The window of channel c is [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)] clipped to the
channels; its sum is a difference of two entries of a cumulative sum of squares along axis 1.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _window_square_sum(x: np.ndarray, size: int) -> np.ndarray:
    channels = x.shape[1]
    before, after = (size - 1) // 2, size // 2  # floor and ceil of (size - 1) / 2
    # accumulate in double: a window sum is a difference of two running totals, which cancels digits
    padded = np.zeros((x.shape[0], channels + 1, *x.shape[2:]), dtype=np.float64)
    np.cumsum(np.square(x, dtype=np.float64), axis=1, out=padded[:, 1:])
    c = np.arange(channels)
    hi = np.minimum(c + after, channels - 1) + 1
    lo = np.maximum(c - before, 0)
    return (padded[:, hi] - padded[:, lo]).astype(x.dtype)


@kernel("ai.onnx", "LRN", since=1)
def lrn(x: np.ndarray, *, size: int, alpha: float, beta: float, bias: float) -> tuple[np.ndarray, ...]:
    if x.ndim < 2:
        raise ValueError(f"LRN: X needs rank >= 2 (N, C, ...), it has shape {list(x.shape)}")
    if size is None or size < 1:
        raise ValueError(f"LRN: size must be >= 1, got {size}")
    xw = x.astype(work_dtype(x))
    square_sum = _window_square_sum(xw, int(size))
    y = xw / (bias + (alpha / size) * square_sum) ** beta
    return (y.astype(x.dtype, copy=False),)
