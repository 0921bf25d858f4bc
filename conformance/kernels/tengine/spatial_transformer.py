"""SpatialTransformer (tengine, op id 105): affine grid (transformer 0) with bilinear sampling (sampler 1)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _affine_grid(theta: np.ndarray, out_h: int, out_w: int) -> tuple[np.ndarray, np.ndarray]:
    """Source x and y ([out_h, out_w], normalised to [-1, 1]) of every target point."""
    xt = -1.0 + np.arange(out_w) * 2.0 / (out_w - 1)
    yt = -1.0 + np.arange(out_h) * 2.0 / (out_h - 1)
    grid_x, grid_y = np.meshgrid(xt, yt)
    t = theta.reshape(-1)[:6].astype(np.float64)
    return t[0] * grid_x + t[1] * grid_y + t[2], t[3] * grid_x + t[4] * grid_y + t[5]


def _sample(plane: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear samples of [C, H, W] at real positions; neighbours outside the input count as 0."""
    _, h, w = plane.shape
    top, left = np.floor(y).astype(np.int64), np.floor(x).astype(np.int64)
    wy, wx = 1.0 - (y - top), 1.0 - (x - left)  # weights of the top-left neighbour
    out = np.zeros((plane.shape[0], *x.shape))
    for dy, fy in ((0, wy), (1, 1.0 - wy)):
        for dx, fx in ((0, wx), (1, 1.0 - wx)):  # the four neighbours, each a whole-grid gather
            r, c = top + dy, left + dx
            inside = (r >= 0) & (r < h) & (c >= 0) & (c < w)
            values = plane[:, np.clip(r, 0, h - 1), np.clip(c, 0, w - 1)]
            out += np.where(inside, values, 0.0) * (fy * fx)
    return out


@kernel("tengine", "SpatialTransformer", since=1)
def spatial_transformer(x: np.ndarray, theta: np.ndarray, *, sampler_type: int, transformer_type: int, shape_size: int,
                        target_shape: list[int]) -> tuple[np.ndarray, ...]:
    # shape_size only records how many target dims the file stores
    if sampler_type != 1 or transformer_type != 0:
        raise ValueError("SpatialTransformer: Tengine runs only the affine transform (0) with bilinear sampling (1)")
    if x.ndim != 4 or x.shape[0] != 1 or theta.size < 6:
        raise ValueError(f"SpatialTransformer: needs a [1, C, H, W] input and 6 theta values, got {x.shape} "
                         f"and {theta.shape}")
    out_h, out_w = target_shape
    if out_h < 2 or out_w < 2:
        raise ValueError(f"SpatialTransformer: target sides must be at least 2, got {target_shape}")
    _, _, h, w = x.shape
    src_x, src_y = _affine_grid(theta, out_h, out_w)
    # Tengine computes the source position in float
    real_x = ((src_x + 1.0) * (w - 1.0) / 2.0).astype(np.float32).astype(np.float64)
    real_y = ((src_y + 1.0) * (h - 1.0) / 2.0).astype(np.float32).astype(np.float64)
    return (_sample(x[0].astype(np.float64), real_x, real_y)[None].astype(x.dtype),)
