"""PriorBox (tengine, op id 18): SSD prior (anchor) boxes of a feature map, and their variances."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _box_sizes(min_size: list[float], max_size: list[float], aspect_ratio: list[float],
               flip: int) -> list[tuple[np.float32, np.float32, bool]]:
    """(width, height, flipped) of every prior at one location, in Tengine's order."""
    f32 = np.float32
    sizes = []
    for s, raw_min in enumerate(min_size):
        mn = f32(int(raw_min))  # Tengine stores each size in an int before using it
        sizes.append((mn, mn, False))
        if max_size:
            side = f32(np.sqrt(f32(mn * f32(int(max_size[s])))))
            sizes.append((side, side, False))
        for ar in aspect_ratio:
            root = f32(np.sqrt(f32(ar)))
            w, h = f32(mn * root), f32(mn / root)
            sizes.append((w, h, False))
            if flip:
                sizes.append((w, h, True))
    return sizes


@kernel("tengine", "PriorBox", since=1)
def prior_box(feature: np.ndarray, image: np.ndarray, *, min_size: list[float], max_size: list[float] | None,
              variance: list[float], aspect_ratio: list[float] | None, flip: int, clip: int, img_size: int, img_h: int,
              img_w: int, step_w: float, step_h: float, offset: float, num_priors: int,
              out_dim: int) -> tuple[np.ndarray, ...]:
    # img_size, num_priors and out_dim are recomputed or unused by Tengine.
    max_size, aspect_ratio = list(max_size or []), list(aspect_ratio or [])
    if feature.ndim != 4 or image.ndim != 4:
        raise ValueError(f"PriorBox: feature {feature.shape} and image {image.shape} must be NCHW")
    if max_size and len(max_size) != len(min_size):
        raise ValueError("PriorBox: max_size needs as many values as min_size")
    if len(variance) != 4:
        raise ValueError(f"PriorBox: variance needs 4 values, got {len(variance)}")
    f32 = np.float32
    fh, fw = feature.shape[2:]
    iw, ih = (image.shape[3], image.shape[2]) if img_h == 0 or img_w == 0 else (img_w, img_h)
    sw, sh = (f32(iw) / f32(fw), f32(ih) / f32(fh)) if step_h == 0 or step_w == 0 else (f32(step_w), f32(step_h))
    cx = ((np.arange(fw, dtype=f32) + f32(offset)) * sw)[None, :, None]
    cy = ((np.arange(fh, dtype=f32) + f32(offset)) * sh)[:, None, None]
    sizes = _box_sizes(min_size, max_size, aspect_ratio, flip)
    bw = np.array([s[0] for s in sizes], f32)
    bh = np.array([s[1] for s in sizes], f32)
    flipped = np.array([s[2] for s in sizes])
    # A flipped prior swaps width and height; Tengine also divides its x by the image height (and y by the width).
    half_x = np.where(flipped, bh, bw) * f32(0.5)
    half_y = np.where(flipped, bw, bh) * f32(0.5)
    div_x = np.where(flipped, f32(ih), f32(iw))
    div_y = np.where(flipped, f32(iw), f32(ih))
    boxes = np.stack(np.broadcast_arrays((cx - half_x) / div_x, (cy - half_y) / div_y,
                                         (cx + half_x) / div_x, (cy + half_y) / div_y), axis=-1).astype(f32)
    flat = boxes.reshape(-1)
    if clip:
        flat = np.clip(flat, 0, 1)
    variances = np.tile(np.asarray(variance, f32), flat.size // 4)
    one = np.concatenate([flat, variances]).reshape(1, 2, flat.size, 1)
    # Tengine fills only the first image; every image of the batch gets the same priors here.
    y = np.repeat(one, feature.shape[0], axis=0)
    return (y.astype(feature.dtype, copy=False),)
