"""Prelu (tengine, op id 17): max(x, 0) + slope * min(x, 0), one slope per channel (axis 1) or one for all."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Prelu", since=1)
def prelu(x: np.ndarray, slope: np.ndarray) -> tuple[np.ndarray, ...]:
    if not 2 <= x.ndim <= 4:
        raise ValueError(f"Prelu: input must have rank 2 to 4, got shape {x.shape}")
    c = x.shape[1]
    if slope.size not in (1, c):
        raise ValueError(f"Prelu: slope needs 1 or {c} values, got shape {slope.shape}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    s = slope.reshape(-1).astype(work.dtype)
    s = s.reshape((1, -1) + (1,) * (x.ndim - 2)) if slope.size > 1 else s[0]
    y = np.maximum(work, 0) + s * np.minimum(work, 0)
    return (y.astype(x.dtype, copy=False),)
