"""MaxPool (1, 8, 10, 11, 12, 22): separable strided maxima; Indices (8+) from the first tap reaching the max.

Indices are flat positions in the input: ((n * C + c) * prod(spatial)) + the position inside the image in
row-major order (storage_order=0) or column-major order (storage_order=1).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel
from conformance.kernels.windows import Window, dense_dilations, make_window, pad_spatial, separable_reduce, tap_view


def _lowest(dtype: np.dtype) -> float | int:
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind in "iu":
        return int(np.iinfo(dtype).min)
    raise ValueError(f"MaxPool: unsupported element type {dtype}")


def _indices(x: np.ndarray, xp: np.ndarray, y: np.ndarray, w: Window, storage_order: int) -> np.ndarray:
    taps = list(w.taps())
    small = np.int8 if len(taps) <= 127 else np.int16 if len(taps) <= 32767 else np.int32
    which = np.zeros(y.shape, dtype=small)  # the first tap (row-major) that holds the maximum
    found = np.zeros(y.shape, dtype=bool)
    hit = np.empty(y.shape, dtype=bool)
    for j, tap in enumerate(taps):
        np.equal(tap_view(xp, w, tap), y, out=hit)
        hit &= ~found
        found |= hit
        if j:
            which += hit.astype(small) * np.asarray(j, dtype=small)
    spatial = x.shape[2:]
    r = len(spatial)
    if storage_order:
        mults = [math.prod(spatial[:i]) for i in range(r)]
    else:
        mults = [math.prod(spatial[i + 1:]) for i in range(r)]
    # flat index = base (window start) + a per-tap offset
    offsets = np.array([sum(t * d * m for t, d, m in zip(tap, w.dilations, mults, strict=True)) for tap in taps],
                       dtype=np.int64)
    base = np.arange(x.shape[0] * x.shape[1], dtype=np.int64).reshape(x.shape[:2] + (1,) * r) * math.prod(spatial)
    for i in range(r):
        shape = [1] * (r + 2)
        shape[i + 2] = w.out[i]
        base = base + ((np.arange(w.out[i], dtype=np.int64) * w.strides[i] - w.begin[i]) * mults[i]).reshape(shape)
    flat = np.take(offsets, which)
    flat += base
    return flat


def _max_pool(x: np.ndarray, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
              dilations: list[int], ceil_mode: int, storage_order: int,
              want_indices: bool) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"MaxPool: input must be N x C x spatial..., got shape {x.shape}")
    spatial = x.shape[2:]
    w = make_window("MaxPool", spatial, kernel_shape, strides=strides, dilations=dilations, pads=pads,
                    auto_pad=auto_pad, ceil_mode=ceil_mode)
    xp = pad_spatial(x, w.begin, w.padded_end(spatial), _lowest(x.dtype))
    y = separable_reduce(xp, w, np.maximum)
    if not want_indices:
        return (y,)
    if storage_order not in (0, 1):
        raise ValueError(f"MaxPool: storage_order must be 0 or 1, got {storage_order}")
    return (y, _indices(x, xp, y, w, storage_order))


@kernel("ai.onnx", "MaxPool", since=1, until=7)
def max_pool_v1(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int],
                strides: list[int]) -> tuple[np.ndarray, ...]:
    # opset 1 has no Indices output, no ceil mode and no dilations
    return _max_pool(x, kernel_shape, auto_pad, pads, strides, dense_dilations(x), 0, 0, want_indices=False)


@kernel("ai.onnx", "MaxPool", since=8, until=9, requested_outputs=True)
def max_pool_v8(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
                storage_order: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    # ceil mode and dilations come at opset 10
    return _max_pool(x, kernel_shape, auto_pad, pads, strides, dense_dilations(x), 0, storage_order,
                     want_indices=requested_outputs >= 2)


@kernel("ai.onnx", "MaxPool", since=10, requested_outputs=True)
def max_pool(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
             dilations: list[int], ceil_mode: int, storage_order: int,
             requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _max_pool(x, kernel_shape, auto_pad, pads, strides, dilations, ceil_mode, storage_order,
                     want_indices=requested_outputs >= 2)
