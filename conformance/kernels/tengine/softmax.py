"""SoftMax (tengine, op id 28): softmax along one axis (negative counts from the back)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SoftMax", since=1)
def softmax(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"SoftMax: axis {axis} is outside [-{x.ndim}, {x.ndim}) for shape {x.shape}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    shifted = np.exp(work - work.max(axis=axis, keepdims=True))
    return ((shifted / shifted.sum(axis=axis, keepdims=True)).astype(x.dtype, copy=False),)
