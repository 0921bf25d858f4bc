"""com.microsoft Inverse: the inverse of every square matrix of X's two innermost axes (float16 through float32)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "Inverse", since=1)
def inverse(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Inverse: X must be a (batch of) square matrices, got {x.shape}")
    wt = np.float64 if x.dtype == np.float64 else np.float32
    y = np.linalg.inv(x.astype(wt))
    return (y.astype(x.dtype),)
