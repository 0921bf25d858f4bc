"""com.microsoft MaxpoolWithMask: onnxruntime's internal max pooling (1 to 3 spatial axes) whose int32 mask M cuts
window scans short, computed as its CPU kernel does.

Output sizes and begin pads are MaxPool's (floor, no dilations; SAME_* pads split as onnxruntime splits them, its
integer halves truncated toward zero). Channel c of the N * C channels of X reads the mask from the flat offset
(c * prod(spatial)) % (MN * MC) of M. A window is scanned over its positions inside X in row-major order; along the
innermost axis a row's scan stops at the first position whose mask is 0 (with 2 or 3 spatial axes the position of
flat spatial index 0 never stops it). The output is the largest value scanned (NaN never wins a comparison), or the
lowest float32 when nothing was scanned."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from conformance.kernels.registry import kernel


def _begin_pads(spatial: tuple[int, ...], auto_pad: str, kernel_shape: list[int], pads: list[int],
                strides: list[int]) -> tuple[list[int], list[int]]:
    """(begin pads, output sizes) as onnxruntime's PoolAttributes computes them."""
    r = len(spatial)
    heads, sizes = [], []
    for i in range(r):
        length, k, s = spatial[i], kernel_shape[i], strides[i]
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            target = (length + s - 1) // s
            needed = (target - 1) * s + k - length
            half = needed + 1 if auto_pad == "SAME_LOWER" else needed
            heads.append(int(half / 2))  # C++ division truncates toward zero
            sizes.append((length + needed - k) // s + 1)
        elif auto_pad == "VALID":
            heads.append(0)
            sizes.append((length - k) // s + 1)
        else:
            heads.append(pads[i])
            sizes.append((length + pads[i] + pads[i + r] - k) // s + 1)
    return heads, sizes


@kernel("com.microsoft", "MaxpoolWithMask", since=1)
def maxpool_with_mask(x: np.ndarray, m: np.ndarray, *, auto_pad: str, kernel_shape: list[int] | None,
                      pads: list[int], storage_order: int, strides: list[int]) -> tuple[np.ndarray, ...]:
    r = x.ndim - 2
    if not 1 <= r <= 3:
        raise ValueError(f"MaxpoolWithMask: X needs 1 to 3 spatial axes, got shape {x.shape}")
    if kernel_shape is None or len(kernel_shape) != r:
        raise ValueError(f"MaxpoolWithMask: kernel_shape must give {r} sizes, got {kernel_shape}")
    if m.ndim != x.ndim or m.shape[2:] != x.shape[2:]:
        raise ValueError(f"MaxpoolWithMask: M {m.shape} must have X's rank and spatial dims {x.shape}")
    if any(p >= k for p, k in zip(pads[:r], kernel_shape, strict=True)) or \
            any(p >= k for p, k in zip(pads[r:], kernel_shape, strict=True)):
        raise ValueError(f"MaxpoolWithMask: pads {pads} must be smaller than the kernel {kernel_shape}")
    spatial = x.shape[2:]
    heads, sizes = _begin_pads(spatial, auto_pad, kernel_shape, pads, strides)
    lowest = np.finfo(np.float32).min
    channels = x.shape[0] * x.shape[1]
    step = int(np.prod(spatial))
    data = x.astype(np.float32).reshape(channels, *spatial)
    y = np.full((channels, *sizes), lowest, dtype=np.float32)
    mask_channels = m.shape[0] * m.shape[1]
    if channels == 0 or step == 0 or any(n <= 0 for n in sizes):
        return (y.reshape(*x.shape[:2], *sizes),)
    if mask_channels == 0:
        raise ValueError("MaxpoolWithMask: M's N and C must be non-zero")
    offsets = (np.arange(channels, dtype=np.int64) * step) % mask_channels
    flat = m.reshape(-1)[offsets[:, None] + np.arange(step)[None, :]]
    # a position stops a row's scan where its mask is 0 (with r > 1 never at flat spatial index 0)
    stops = (flat == 0).reshape(channels, *spatial)
    if r > 1:
        stops.reshape(channels, -1)[:, 0] = False
    for out in itertools.product(*(range(n) for n in sizes)):
        window = []
        for i in range(r):
            start = out[i] * strides[i] - heads[i]
            end = min(start + kernel_shape[i], spatial[i])
            window.append(slice(max(start, 0), max(end, 0)))
        where: tuple[Any, ...] = (slice(None), *window)
        values = data[where]
        scanned = np.logical_and.accumulate(~stops[where], axis=-1) if values.size else \
            np.zeros(values.shape, dtype=bool)
        kept = np.where(scanned, values, np.float32(np.nan)).reshape(channels, -1)
        at: tuple[Any, ...] = (slice(None), *out)
        y[at] = np.fmax.reduce(kept, axis=1, initial=lowest)
    return (y.reshape(*x.shape[:2], *sizes),)
