"""Psroipooling (tengine, op id 58): position-sensitive average pooling of one region of interest (R-FCN)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.registry import kernel


def _c_round(v: np.ndarray | np.floating[Any]) -> np.ndarray:
    """C's round(): halves away from zero (numpy rounds them to even)."""
    return np.asarray(np.sign(v) * np.floor(np.abs(v) + 0.5), np.float32)


def _bins(start: np.ndarray | np.floating[Any], length: int, count: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    f32 = np.float32
    step = f32(length) / f32(count)
    idx = np.arange(count, dtype=f32)
    lo = np.floor(start + idx * step).astype(np.int64)
    hi = np.ceil(start + (idx + 1) * step).astype(np.int64)
    return np.clip(lo, 0, size), np.clip(hi, 0, size)


@kernel("tengine", "Psroipooling", since=1)
def psroipooling(feature: np.ndarray, rois: np.ndarray, *, pooled_w: int, pooled_h: int, spatial_scale: float,
                 output_dim: int) -> tuple[np.ndarray, ...]:
    if feature.ndim != 4 or feature.shape[0] != 1:
        raise ValueError(f"Psroipooling: feature must be [1, C, H, W], got {feature.shape}")
    if rois.size != 4:
        raise ValueError(f"Psroipooling: rois must hold one region (4 values), got shape {rois.shape}")
    c, h, w = feature.shape[1:]
    if c != output_dim * pooled_h * pooled_w or min(pooled_w, pooled_h, output_dim) < 1:
        raise ValueError(f"Psroipooling: {c} channels do not equal output_dim * pooled_h * pooled_w")
    f32 = np.float32
    scale = f32(spatial_scale)
    x0, y0, x1, y1 = rois.reshape(4).astype(f32)
    rx0, ry0 = _c_round(x0) * scale, _c_round(y0) * scale
    rx1, ry1 = _c_round(x1 + f32(1)) * scale, _c_round(y1 + f32(1)) * scale
    roi_w, roi_h = int(max(float(rx1 - rx0), 0.0)), int(max(float(ry1 - ry0), 0.0))
    hs, he = _bins(ry0, roi_h, pooled_h, h)
    ws, we = _bins(rx0, roi_w, pooled_w, w)
    work = np.promote_types(feature.dtype, np.float32)
    planes = feature[0].astype(work).reshape(output_dim, pooled_h, pooled_w, h, w)
    # Summed-area table: every bin's sum in O(1) instead of a loop over its elements.
    table = np.zeros((*planes.shape[:3], h + 1, w + 1), planes.dtype)
    table[..., 1:, 1:] = planes.cumsum(axis=3).cumsum(axis=4)
    i, j = np.arange(pooled_h)[:, None], np.arange(pooled_w)[None, :]
    top, bottom, left, right = hs[:, None], he[:, None], ws[None, :], we[None, :]
    sums = (table[:, i, j, bottom, right] - table[:, i, j, top, right]
            - table[:, i, j, bottom, left] + table[:, i, j, top, left])
    area = (bottom - top) * (right - left)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(area > 0, sums / np.maximum(area, 1), 0)
    return (y[None].astype(feature.dtype, copy=False),)
