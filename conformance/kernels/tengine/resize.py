"""Resize (tengine, op id 54): nearest-neighbour upscaling of NCHW planes by scale_x (rows) and scale_y (columns)."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Resize", since=1)
def resize(x: np.ndarray, *, scale_x: float, scale_y: float, type: int) -> tuple[np.ndarray, ...]:
    # type is stored in the file but Tengine's loader never reads it: every Resize is nearest neighbour.
    if x.ndim != 4:
        raise ValueError(f"Resize: input must be NCHW (rank 4), got shape {x.shape}")
    if scale_x <= 0 or scale_y <= 0:
        raise ValueError(f"Resize: scales must be positive, got {scale_x} and {scale_y}")
    f32 = np.float32
    h, w = x.shape[2:]
    # Tengine's loader puts scale_x into scale_h and scale_y into scale_w.
    oh, ow = math.floor(h * f32(scale_x)), math.floor(w * f32(scale_y))
    step_h, step_w = f32(1) / f32(scale_x), f32(1) / f32(scale_y)
    rows = np.minimum((np.arange(oh, dtype=f32) * step_h).astype(np.int64), h - 1)
    cols = np.minimum((np.arange(ow, dtype=f32) * step_w).astype(np.int64), w - 1)
    return (np.ascontiguousarray(x[:, :, rows][:, :, :, cols]),)
