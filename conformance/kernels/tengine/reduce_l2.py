"""ReduceL2 (tengine, op id 89): the L2 norm over every axis from `axis` to the last."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ReduceL2", since=1)
def reduce_l2(x: np.ndarray, *, axis: int, keepdim: int) -> tuple[np.ndarray, ...]:
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"ReduceL2: axis {axis} is out of range for rank {x.ndim}")
    start = axis + x.ndim if axis < 0 else axis
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    y = np.sqrt(np.square(work).reshape((*x.shape[:start], -1)).sum(axis=-1))
    shape = x.shape[:start] + ((1,) * (x.ndim - start) if keepdim else ())
    return (y.reshape(shape).astype(x.dtype, copy=False),)
