"""com.microsoft ReduceSumInteger: the sum of 8-bit data over `axes` in 32 bits (int32 for int8 data, uint32 for
uint8 data), keeping the reduced axes as 1 when keepdims is 1.

onnxruntime has no CPU kernel for it. Sums wrap in 32 bits, which needs more than 16 million 8-bit terms.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "ReduceSumInteger", since=1)
def reduce_sum_integer(data: np.ndarray, *, axes: list[int], keepdims: int) -> tuple[np.ndarray, ...]:
    op = "ReduceSumInteger"
    dtype = eight_bit(op, data)
    r = data.ndim
    if any(not -r <= a < r for a in axes) or len({a % max(r, 1) for a in axes}) != len(axes):
        raise ValueError(f"{op}: axes {axes} must be distinct axes of a rank-{r} tensor")
    out = np.uint32 if dtype == np.uint8 else np.int32
    total = data.astype(np.int64).sum(axis=tuple(a % r for a in axes), keepdims=bool(keepdims))
    return (np.asarray(total).astype(out),)
