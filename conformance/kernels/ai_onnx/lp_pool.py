"""LpPool (1, 2, 11, 18, 22): (sum over each window of |x|^p)^(1/p), by separable strided sums.

Padding (explicit, automatic or the ceil-mode overhang) holds zeros, which add nothing to the sum. Version 1 takes
a float p, later versions an int p; ceil mode and dilations come at 18. Half precision is computed in float32.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel
from conformance.kernels.windows import dense_dilations, make_window, pad_spatial, separable_reduce


def lp_norm_power(x: np.ndarray, p: float) -> np.ndarray:
    """|x|^p in the working dtype (p = 1 and p = 2 without a general power)."""
    a = np.asarray(np.abs(x.astype(work_dtype(x))))
    if p == 1:
        return a
    if p == 2:
        return np.asarray(a * a)
    return np.asarray(np.power(a, p, dtype=a.dtype))


def lp_norm_root(total: np.ndarray, p: float) -> np.ndarray:
    """total^(1/p), the inverse of `lp_norm_power` on sums."""
    if p == 1:
        return total
    if p == 2:
        return np.asarray(np.sqrt(total))
    return np.asarray(np.power(total, 1.0 / p, dtype=total.dtype))


def _lp_pool(x: np.ndarray, kernel_shape: list[int] | None, auto_pad: str, pads: list[int], strides: list[int],
             dilations: list[int], ceil_mode: int, p: float) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"LpPool: input must be N x C x spatial..., got shape {x.shape}")
    if not p > 0:
        raise ValueError(f"LpPool: p must be positive, got {p}")
    spatial = x.shape[2:]
    w = make_window("LpPool", spatial, kernel_shape, strides=strides, dilations=dilations, pads=pads,
                    auto_pad=auto_pad, ceil_mode=ceil_mode)
    powered = pad_spatial(lp_norm_power(x, p), w.begin, w.padded_end(spatial), 0)
    total = separable_reduce(powered, w, np.add)
    return (lp_norm_root(total, p).astype(x.dtype, copy=False),)


@kernel("ai.onnx", "LpPool", since=1, until=17)
def lp_pool_v1(x: np.ndarray, *, kernel_shape: list[int] | None, auto_pad: str, pads: list[int],
               strides: list[int], p: float) -> tuple[np.ndarray, ...]:
    # p is a float at version 1 and an int from 2; ceil mode and dilations come at 18
    return _lp_pool(x, kernel_shape, auto_pad, pads, strides, dense_dilations(x), 0, p)


@kernel("ai.onnx", "LpPool", since=18)
def lp_pool(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
            dilations: list[int], ceil_mode: int, p: int) -> tuple[np.ndarray, ...]:
    return _lp_pool(x, kernel_shape, auto_pad, pads, strides, dilations, ceil_mode, p)
