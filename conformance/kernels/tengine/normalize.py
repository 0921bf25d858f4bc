"""Normalize (tengine, op id 14): SSD's L2 normalisation of an NCHW tensor followed by a per-channel scale."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Normalize", since=1)
def normalize(x: np.ndarray, scale: np.ndarray, *, across_spatial: int, channel_shared: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"Normalize: input must be NCHW (rank 4), got shape {x.shape}")
    c = x.shape[1]
    want = 1 if channel_shared else c
    if scale.size != want:
        raise ValueError(f"Normalize: scale needs {want} value(s), got shape {scale.shape}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    axes = (1, 2, 3) if across_spatial else (1,)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = work / np.sqrt(np.square(work).sum(axis=axes, keepdims=True))
    factor = scale.reshape(-1).astype(work.dtype)
    y = y * (factor[0] if channel_shared else factor.reshape(1, c, 1, 1))
    return (y.astype(x.dtype, copy=False),)
