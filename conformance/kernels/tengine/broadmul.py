"""BroadMul (tengine, op id 74): multiplies each channel (axis 1) by one value of the second input."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "BroadMul", since=1)
def broadmul(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    if a.ndim < 2 or b.size != a.shape[1]:
        raise ValueError(f"BroadMul: B needs one value per channel of A {a.shape}, got {b.shape}")
    per_channel = b.reshape((1, -1) + (1,) * (a.ndim - 2)).astype(a.dtype, copy=False)
    return ((a * per_channel).astype(a.dtype, copy=False),)
