"""SoftMax (tengine, op id 28): softmax along one axis (negative counts from the back)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SoftMax", since=1)
def softmax(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    if axis < -x.ndim:
        raise ValueError(f"SoftMax: axis {axis} is below -{x.ndim} for shape {x.shape}")
    axis = min(axis, x.ndim - 1)  # Tengine 1.x: an axis at or past the rank is the last one
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    shifted = np.exp(work - work.max(axis=axis, keepdims=True))
    return ((shifted / shifted.sum(axis=axis, keepdims=True)).astype(x.dtype, copy=False),)
