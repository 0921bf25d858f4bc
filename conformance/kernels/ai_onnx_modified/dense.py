"""Dense (ai.onnx.modified): Y = X · W + B with the kernel laid out [K, N]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.modified", "Dense", since=1)
def dense(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if x.ndim != 2 or w.ndim != 2 or x.shape[1] != w.shape[0]:
        raise ValueError(f"Dense: X {x.shape} and W {w.shape} must be [M, K] and [K, N]")
    work = np.promote_types(x.dtype, np.float32)
    y = x.astype(work, copy=False) @ w.astype(work, copy=False)
    if b is not None:
        if b.shape != (w.shape[1],):
            raise ValueError(f"Dense: B must have shape ({w.shape[1]},), got {b.shape}")
        y = y + b.astype(work, copy=False)
    return (y.astype(x.dtype, copy=False),)
