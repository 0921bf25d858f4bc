"""Upsample (tengine, op id 51): nearest neighbour with Tengine's float32 truncations."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Upsample", since=1)
def upsample(x: np.ndarray, *, scale: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"Upsample: input must be NCHW (rank 4), got shape {x.shape}")
    if not scale > 0:
        raise ValueError(f"Upsample: scale must be positive, got {scale}")
    factor = np.float32(scale)
    h, w = x.shape[2:]
    # C: int * float is a float product, truncated; the source index is int(h / scale) in float
    out_h, out_w = int(np.float32(h) * factor), int(np.float32(w) * factor)
    rows = (np.arange(out_h, dtype=np.float32) / factor).astype(np.int64)
    cols = (np.arange(out_w, dtype=np.float32) / factor).astype(np.int64)
    return (np.ascontiguousarray(x[:, :, rows][:, :, :, cols]),)
