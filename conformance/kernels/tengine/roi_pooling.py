"""RoiPooling (tengine, op id 24): Fast R-CNN max pooling of R boxes [1, R, 4] over the first image."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _round_half_away(v: np.ndarray) -> np.ndarray:
    return np.asarray(np.copysign(np.floor(np.abs(v) + 0.5), v))


def _bin_edges(start: np.ndarray, extent: np.ndarray, pooled: int, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """[R, pooled] first and end (exclusive) cells of each bin, clamped to [0, limit]."""
    size = extent.astype(np.float32) / np.float32(pooled)  # float bin size, as Tengine
    i = np.arange(pooled, dtype=np.float64)
    lo = start[:, None] + np.floor(i[None, :] * size[:, None].astype(np.float64)).astype(np.int64)
    hi = start[:, None] + np.ceil((i[None, :] + 1) * size[:, None].astype(np.float64)).astype(np.int64)
    return np.clip(lo, 0, limit), np.clip(hi, 0, limit)


@kernel("tengine", "RoiPooling", since=1)
def roi_pooling(x: np.ndarray, rois: np.ndarray, *, pooled_h: int, pooled_w: int,
                spatial_scale: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4 or x.shape[0] != 1 or rois.ndim < 2 or rois.shape[0] != 1:
        raise ValueError(f"RoiPooling: needs a [1, C, H, W] input and [1, R, 4] boxes, got {x.shape} and {rois.shape}")
    _, _, h, w = x.shape
    count = rois.shape[1]
    boxes = rois.reshape(count, -1)
    if boxes.shape[1] != 4:
        raise ValueError(f"RoiPooling: each box needs 4 values, got shape {rois.shape}")
    # Tengine multiplies in double and rounds halves away from zero
    cells = _round_half_away(boxes.astype(np.float32).astype(np.float64) * float(np.float32(spatial_scale)))
    x0, y0, x1, y1 = (cells[:, k].astype(np.int64) for k in range(4))
    hs, he = _bin_edges(y0, np.maximum(y1 - y0 + 1, 1), pooled_h, h)  # [R, ph]
    ws, we = _bin_edges(x0, np.maximum(x1 - x0 + 1, 1), pooled_w, w)  # [R, pw]
    rows, cols = np.arange(h), np.arange(w)
    in_rows = (rows[None, None, :] >= hs[:, :, None]) & (rows[None, None, :] < he[:, :, None])  # [R, ph, H]
    in_cols = (cols[None, None, :] >= ws[:, :, None]) & (cols[None, None, :] < we[:, :, None])  # [R, pw, W]
    mask = in_rows[:, None, :, None, :, None] & in_cols[:, None, None, :, None, :]  # [R, 1, ph, pw, H, W]
    values = np.where(mask, x[0][None, :, None, None, :, :], -np.inf).max(axis=(4, 5))
    pooled = np.where(np.isneginf(values), 0.0, values)  # an empty bin is 0
    return (pooled.astype(x.dtype),)
