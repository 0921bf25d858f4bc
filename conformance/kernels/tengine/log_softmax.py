"""LogSoftmax (tengine, op id 99): log of the softmax along `axis`."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "LogSoftmax", since=1)
def log_softmax(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"LogSoftmax: axis {axis} is out of range for rank {x.ndim}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    shifted = work - work.max(axis=axis, keepdims=True)
    y = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    return (y.astype(x.dtype, copy=False),)
