"""ROIAlign (tengine, op id 57): ncnn's ROIAlign of one box over the first image's channels.

Coordinates are computed in double precision (Tengine uses float; the results agree to float32 accuracy).

Each bin averages a ceil(bin height) x ceil(bin width) grid of bilinear samples (the grid size
varies per bin); the samples of all bins are evaluated at once, padded to the largest grid with a
mask.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _bins(start: float, bin_size: float, pooled: int, limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per bin along one axis: clamped start, sample grid size, and whether it is non-empty."""
    i = np.arange(pooled, dtype=np.float64)
    lo = np.clip(start + i * bin_size, 0, limit)
    hi = np.clip(start + (i + 1) * bin_size, 0, limit)
    return lo, np.ceil(hi - lo).astype(np.int64), hi > lo


def _samples(lo: np.ndarray, grid: np.ndarray, bin_size: float, most: int) -> tuple[np.ndarray, np.ndarray]:
    """[pooled, most] sample coordinates and their validity mask along one axis."""
    k = np.arange(most, dtype=np.float64)
    safe = np.maximum(grid, 1)[:, None]
    coords = lo[:, None] + (k[None, :] + 0.5) * bin_size / safe
    return coords, k[None, :] < grid[:, None]


def _lerp_axis(coords: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Lower and upper neighbours with their weights; the upper one clamps to the last index."""
    low = np.clip(coords.astype(np.int64), 0, size - 1)  # C's int() truncation; coords are >= 0
    high = low + 1
    w_low = high - coords
    w_high = coords - low
    over = high >= size
    high = np.where(over, size - 1, high)
    return low, high, np.where(over, 1.0, w_low), np.where(over, 0.0, w_high)


@kernel("tengine", "ROIAlign", since=1)
def roi_align(x: np.ndarray, rois: np.ndarray, *, pooled_width: int, pooled_height: int,
              spatial_scale: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4 or x.shape[0] != 1 or rois.size != 4:
        raise ValueError(f"ROIAlign: needs a [1, C, H, W] input and 4 box values, got {x.shape} and {rois.shape}")
    if pooled_width < 1 or pooled_height < 1:
        raise ValueError(f"ROIAlign: pooled sizes must be at least 1, got {pooled_height}x{pooled_width}")
    _, _, h, w = x.shape
    x1, y1, x2, y2 = (float(v) * spatial_scale for v in rois.reshape(4))
    bin_w = max(x2 - x1, 1.0) / pooled_width
    bin_h = max(y2 - y1, 1.0) / pooled_height
    ys, grid_h, full_h = _bins(y1, bin_h, pooled_height, h)
    xs, grid_w, full_w = _bins(x1, bin_w, pooled_width, w)
    most_h, most_w = max(int(grid_h.max(initial=0)), 1), max(int(grid_w.max(initial=0)), 1)
    sy, my = _samples(ys, grid_h, bin_h, most_h)  # [ph, gh]
    sx, mx = _samples(xs, grid_w, bin_w, most_w)  # [pw, gw]
    y0, y1i, wy0, wy1 = _lerp_axis(sy, h)
    x0, x1i, wx0, wx1 = _lerp_axis(sx, w)
    plane = x[0].astype(np.float64)  # [C, H, W]

    def gather(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:  # -> [C, ph, gh, pw, gw]
        picked: np.ndarray = plane[:, rows[:, :, None, None], cols[None, None, :, :]]
        return picked

    value = (gather(y0, x0) * wx0[None, None] + gather(y0, x1i) * wx1[None, None]) * wy0[:, :, None, None] \
        + (gather(y1i, x0) * wx0[None, None] + gather(y1i, x1i) * wx1[None, None]) * wy1[:, :, None, None]
    mask = my[:, :, None, None] & mx[None, None, :, :]
    sums = np.where(mask, value, 0.0).sum(axis=(2, 4))  # [C, ph, pw]
    area = np.outer(grid_h, grid_w)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = np.where(np.outer(full_h, full_w), sums / np.maximum(area, 1), 0.0)
    return (pooled[None].astype(x.dtype),)
