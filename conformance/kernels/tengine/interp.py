"""Interp (tengine, op id 71): nearest (1) or bilinear (2 half-pixel, 4 align-corners) resize of NCHW planes."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


def output_size(size: int, scale: float, given: int, use_scale: bool) -> int:
    """Tengine's infer_shape: int(size * scale) when both scales are set, else the stored output size."""
    return math.floor(size * np.float32(scale)) if use_scale else given


def linear_coeffs(size: int, out: int, align_corners: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(left index, right index, right weight) per output position, as Tengine's linear_coeffs."""
    if align_corners:
        if out < 2:
            raise ValueError("Interp: align-corners (resize_type 4) needs an output of at least 2 along each axis")
        fx = (np.arange(out) * ((size - 1) / (out - 1))).astype(np.float32)
    else:
        fx = ((np.arange(out) + 0.5) * (size / out) - 0.5).astype(np.float32)
    sx = np.floor(fx).astype(np.int64)
    frac = fx - sx
    frac = np.where(sx < 0, np.float32(0), frac)
    sx = np.maximum(sx, 0)
    last = sx >= size - 1
    sx = np.where(last, size - 2, sx)
    frac = np.where(last, np.float32(1), frac)
    # With size 1 the left index is -1 and has weight 0; clip it so the (weightless) read stays inside.
    return np.maximum(sx, 0), np.minimum(sx + 1, size - 1), frac.astype(np.float32)


@kernel("tengine", "Interp", since=1)
def interp(x: np.ndarray, *, resize_type: int, width_scale: float, height_scale: float, output_width: int,
           output_height: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"Interp: input must be NCHW (rank 4), got shape {x.shape}")
    h, w = x.shape[2:]
    use_scale = height_scale != 0 and width_scale != 0
    oh = output_size(h, height_scale, output_height, use_scale)
    ow = output_size(w, width_scale, output_width, use_scale)
    if oh < 1 or ow < 1:
        raise ValueError(f"Interp: output size {oh}x{ow} is empty")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    if resize_type == 1:
        sh = np.float32(height_scale) if use_scale else np.float32(oh) / np.float32(h)
        sw = np.float32(width_scale) if use_scale else np.float32(ow) / np.float32(w)
        rows = np.minimum((np.arange(oh) / sh).astype(np.int64), h - 1)
        cols = np.minimum((np.arange(ow) / sw).astype(np.int64), w - 1)
        y = work[:, :, rows][:, :, :, cols]
    elif resize_type in (2, 4):
        y0, y1, fy = linear_coeffs(h, oh, resize_type == 4)
        x0, x1, fx = linear_coeffs(w, ow, resize_type == 4)
        horizontal = work[..., x0] * (1 - fx) + work[..., x1] * fx
        y = horizontal[:, :, y0, :] * (1 - fy)[:, None] + horizontal[:, :, y1, :] * fy[:, None]
    else:
        raise ValueError(f"Interp: resize_type must be 1, 2 or 4, got {resize_type}")
    return (y.astype(x.dtype, copy=False),)
