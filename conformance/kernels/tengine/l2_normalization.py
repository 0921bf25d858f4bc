"""L2Normalization (tengine, op id 101): x divided by the L2 norm of its last axis (TensorFlow Lite's op)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "L2Normalization", since=1)
def l2_normalization(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim < 1:
        raise ValueError("L2Normalization: input must have rank >= 1")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    # No epsilon: Tengine divides by the plain norm (a zero row gives NaN).
    with np.errstate(divide="ignore", invalid="ignore"):
        y = work / np.sqrt(np.square(work).sum(axis=-1, keepdims=True))
    return (y.astype(x.dtype, copy=False),)
