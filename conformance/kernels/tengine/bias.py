"""Bias (tengine, op id 61): adds one value per channel (axis 1) of an NCHW tensor."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Bias", since=1)
def bias(x: np.ndarray, b: np.ndarray, *, bias_size: int) -> tuple[np.ndarray, ...]:
    # bias_size is stored in the file but Tengine's loader never reads it; the bias tensor's first C values count.
    if x.ndim < 2 or b.size < x.shape[1]:
        raise ValueError(f"Bias: needs one value per channel of {x.shape}, got bias {b.shape}")
    per_channel = b.reshape(-1)[:x.shape[1]].reshape((1, -1) + (1,) * (x.ndim - 2)).astype(x.dtype, copy=False)
    return ((x + per_channel).astype(x.dtype, copy=False),)
