"""StridedSlice (tengine, op id 41): per NCHW axis, begin + i * stride for Tengine's element count.

The count is ceil((size - |end - begin|) / stride), or 1 where that is 0: `end` counts back from
the end of the axis.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


def _axis_indices(size: int, begin: int, end: int, stride: int) -> slice:
    if stride < 1 or begin < 0:
        raise ValueError(f"StridedSlice: begin {begin} must be >= 0 and stride {stride} >= 1")
    count = max(math.ceil((size - abs(end - begin)) / stride), 1)
    last = begin + (count - 1) * stride
    if last >= size:
        raise ValueError(f"StridedSlice: index {last} is outside an axis of {size}")
    return slice(begin, last + 1, stride)


@kernel("tengine", "StridedSlice", since=1)
def strided_slice(x: np.ndarray, *, begin_n: int, end_n: int, stride_n: int, begin_c: int, end_c: int, stride_c: int,
                  begin_h: int, end_h: int, stride_h: int, begin_w: int, end_w: int,
                  stride_w: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"StridedSlice: input must be NCHW (rank 4), got shape {x.shape}")
    per_axis = ((begin_n, end_n, stride_n), (begin_c, end_c, stride_c), (begin_h, end_h, stride_h),
                (begin_w, end_w, stride_w))
    index = tuple(_axis_indices(size, *p) for size, p in zip(x.shape, per_axis, strict=True))
    return (np.ascontiguousarray(x[index]),)
