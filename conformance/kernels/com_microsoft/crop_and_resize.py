"""com.microsoft CropAndResize: each box of `rois` (normalized [y1, x1, y2, x2]) cut from image
`batch_indices[r]` of X (NCHW) and resized, corners aligned, to crop_size = [crop_height, crop_width].

Output row i of a box samples y = y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_height - 1) (the first row y1 *
(H - 1) and the last y2 * (H - 1) exactly), or the box's middle (y1 + y2) / 2 * (H - 1) when crop_height is 1;
columns likewise. A sample outside [0, H - 1] x [0, W - 1] is extrapolation_value. mode bilinear interpolates
the four neighbours (left-right first, then top-bottom, as onnxruntime does; float16 in float32); nearest takes the
neighbour at the rounded position (halves away from zero).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _positions(start: np.ndarray, end: np.ndarray, size: int, out: int) -> np.ndarray:
    """[num_rois, out] sample positions along one axis of length `size`, in the dtype of `start`."""
    scale = float(size - 1)
    if out == 1:
        return np.asarray((0.5 * (start + end) * scale)[:, None], dtype=start.dtype)
    step = (end - start) * scale / (out - 1)
    pos = start[:, None] * scale + np.arange(out, dtype=start.dtype)[None, :] * step[:, None]
    pos[:, 0] = start * scale
    pos[:, -1] = end * scale
    return np.asarray(pos, dtype=start.dtype)


@kernel("com.microsoft", "CropAndResize", since=1)
def crop_and_resize(x: np.ndarray, rois: np.ndarray, batch_indices: np.ndarray, crop_size: np.ndarray, *,
                    extrapolation_value: float, mode: str) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"CropAndResize: X must be 4-D (N, C, H, W), got {x.shape}")
    if rois.ndim != 2 or rois.shape[1] != 4:
        raise ValueError(f"CropAndResize: rois must be [num_rois, 4], got {rois.shape}")
    if batch_indices.shape != (rois.shape[0],):
        raise ValueError(f"CropAndResize: batch_indices must be [num_rois] = [{rois.shape[0]}], "
                         f"got {batch_indices.shape}")
    if crop_size.shape != (2,):
        raise ValueError(f"CropAndResize: crop_size must hold 2 values, got shape {crop_size.shape}")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"CropAndResize: mode must be bilinear or nearest, got {mode!r}")
    n, c, h, w = x.shape
    ch, cw = (int(v) for v in crop_size)
    if ch <= 0 or cw <= 0:
        raise ValueError(f"CropAndResize: crop_size must be positive, got {[ch, cw]}")
    b = batch_indices.astype(np.int64)
    if np.any((b < 0) | (b >= n)):
        raise ValueError(f"CropAndResize: batch_indices must lie in [0, {n}), got {b.tolist()}")
    wt = np.float64 if x.dtype == np.float64 else np.float32  # float16 works in float32, as onnxruntime's lerps
    r = rois.astype(wt)
    ys = _positions(r[:, 0], r[:, 2], h, ch)  # [R, ch]
    xs = _positions(r[:, 1], r[:, 3], w, cw)  # [R, cw]
    y_in = (ys >= 0) & (ys <= h - 1)
    x_in = (xs >= 0) & (xs <= w - 1)
    yc = np.clip(ys, 0, h - 1)
    xc = np.clip(xs, 0, w - 1)
    img = x.astype(wt)[b]  # [R, C, H, W]
    ri = np.arange(len(b))[:, None, None, None]
    ci = np.arange(c)[None, :, None, None]
    if mode == "bilinear":
        top, bottom = np.floor(yc).astype(np.int64), np.ceil(yc).astype(np.int64)
        left, right = np.floor(xc).astype(np.int64), np.ceil(xc).astype(np.int64)
        ly = (yc - top).astype(wt)[:, None, :, None]
        lx = (xc - left).astype(wt)[:, None, None, :]

        def at(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
            return np.asarray(img[ri, ci, yy[:, None, :, None], xx[:, None, None, :]])

        upper = at(top, left) + (at(top, right) - at(top, left)) * lx
        lower = at(bottom, left) + (at(bottom, right) - at(bottom, left)) * lx
        y = upper + (lower - upper) * ly
    else:
        ny = np.floor(np.abs(yc) + 0.5).astype(np.int64)  # roundf: halves away from zero (positions are >= 0)
        nx = np.floor(np.abs(xc) + 0.5).astype(np.int64)
        y = img[ri, ci, ny[:, None, :, None], nx[:, None, None, :]]
    inside = y_in[:, None, :, None] & x_in[:, None, None, :]
    y = np.where(inside, y, wt(extrapolation_value))
    return (y.astype(x.dtype),)
