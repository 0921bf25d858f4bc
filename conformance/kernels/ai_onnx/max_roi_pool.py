"""MaxRoiPool (1, 22): the maximum of each of pooled_shape bins of every RoI (Caffe's RoI pooling).

A RoI [batch, x1, y1, x2, y2] is scaled by spatial_scale and rounded half away from zero to whole pixels; it
spans x2 - x1 + 1 columns (at least 1), cut into pooled_shape[1] bins [floor(j * size), ceil((j + 1) * size))
shifted by x1 and clipped to the image (rows likewise). An empty bin gives 0.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def round_half_away(x: np.ndarray) -> np.ndarray:
    """Round to the nearest integer, halves away from zero (C's round)."""
    return np.asarray(np.sign(x) * np.floor(np.abs(x) + 0.5))


def _bin_masks(start: int, end: int, bins: int, size: int) -> np.ndarray:
    """bins x size: which pixels of one axis each bin covers."""
    length = max(end - start + 1, 1)
    step = np.float32(length) / np.float32(bins)
    j = np.arange(bins, dtype=np.float32)
    lo = np.clip(np.floor(j * step).astype(np.int64) + start, 0, size)
    hi = np.clip(np.ceil((j + 1) * step).astype(np.int64) + start, 0, size)
    pixels = np.arange(size)
    return np.asarray((pixels >= lo[:, None]) & (pixels < hi[:, None]))


@kernel("ai.onnx", "MaxRoiPool", since=1)
def max_roi_pool(x: np.ndarray, rois: np.ndarray, *, pooled_shape: list[int],
                 spatial_scale: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"MaxRoiPool: X must be N x C x H x W, got shape {x.shape}")
    if rois.ndim != 2 or rois.shape[1] != 5:
        raise ValueError(f"MaxRoiPool: rois must be num_rois x 5, got shape {rois.shape}")
    if len(pooled_shape) != 2 or min(pooled_shape) < 1:
        raise ValueError(f"MaxRoiPool: pooled_shape must be two sizes >= 1, got {pooled_shape}")
    n, c, height, width = x.shape
    ph, pw = (int(d) for d in pooled_shape)
    y = np.zeros((rois.shape[0], c, ph, pw), dtype=x.dtype)
    scaled = round_half_away(rois[:, 1:].astype(np.float32) * np.float32(spatial_scale)).astype(np.int64)
    batch = rois[:, 0].astype(np.int64)
    if batch.size and (batch.min() < 0 or batch.max() >= n):
        raise ValueError(f"MaxRoiPool: batch indices must lie in [0, {n}), got {batch.tolist()}")
    for r in range(rois.shape[0]):  # one RoI at a time; each is vectorised over channels and bins
        x1, y1, x2, y2 = scaled[r].tolist()
        rows, cols = _bin_masks(y1, y2, ph, height), _bin_masks(x1, x2, pw, width)
        inside = rows[:, None, :, None] & cols[None, :, None, :]  # ph x pw x H x W
        image = x[batch[r]][:, None, None, :, :]
        low = np.array(-np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min, dtype=x.dtype)
        best = np.max(np.where(inside, image, low), axis=(3, 4))
        y[r] = np.where(inside.any(axis=(2, 3)), best, 0)
    return (y,)
