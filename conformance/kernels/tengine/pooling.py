"""Pooling (tengine, op id 16): max or average pooling with Tengine's output sizes, pads and divisors.

Windows are separable, so the divisor of every output is the product of one count per axis; the
pooled values come from sliding windows over the padded input (no loop over elements).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from conformance.kernels.registry import kernel


def _trunc_div(a: int, b: int) -> int:
    """C integer division (rounds toward zero), as Tengine's shape code does."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


@dataclass(frozen=True)
class _Axis:
    out: int
    pad: int  # rows of padding before the input
    kernel: int
    stride: int
    divisor: np.ndarray  # per output position: the count the average divides by


def _axis(size: int, kernel_size: int, stride: int, pad0: int, caffe_flavor: int, is_global: bool) -> _Axis:
    if is_global:
        kernel_size, stride, pad0 = size, 1, 0
    if pad0 < 0:
        out = 1 + _trunc_div(size - 1, stride)
    elif caffe_flavor == 1:
        out = 2 + _trunc_div(size - kernel_size + 2 * pad0 - 1, stride)
        if pad0 > 0 and (out - 1) * stride >= size + pad0:
            out -= 1
    elif caffe_flavor == 2:
        out = 1 + _trunc_div(size - kernel_size + pad0, stride)
    else:
        out = 1 + _trunc_div(size - kernel_size + 2 * pad0, stride)
    if out < 1:
        raise ValueError(f"Pooling: window {kernel_size} with pad {pad0} does not fit in {size}")
    if caffe_flavor == 2:
        pad = _trunc_div(pad0, 2)
    elif pad0 < 0:
        pad = max(0, (out - 1) * stride + kernel_size - size) // 2
    else:
        pad = pad0
    start = np.arange(out) * stride - pad
    end = np.minimum(start + kernel_size, size + pad)
    inside = np.minimum(end, size) - np.maximum(start, 0)
    divisor = end - start if caffe_flavor else inside
    return _Axis(out, pad, kernel_size, stride, divisor)


def _windows(x: np.ndarray, ah: _Axis, aw: _Axis, fill: float) -> np.ndarray:
    """[N, C, OH, OW, kh, kw] windows of x padded with `fill` (padding never counts)."""
    h, w = x.shape[2:]
    bottom = max(0, (ah.out - 1) * ah.stride + ah.kernel - ah.pad - h)
    right = max(0, (aw.out - 1) * aw.stride + aw.kernel - aw.pad - w)
    # Rows Tengine clips at H + pad are padding anyway, so a plain window over the padded array is exact.
    xp = np.pad(x, ((0, 0), (0, 0), (max(ah.pad, 0), bottom), (max(aw.pad, 0), right)), constant_values=fill)
    view = sliding_window_view(xp, (ah.kernel, aw.kernel), axis=(2, 3))
    return view[:, :, ::ah.stride, ::aw.stride][:, :, :ah.out, :aw.out]


@kernel("tengine", "Pooling", since=1)
def pooling(x: np.ndarray, *, alg: int, kernel_h: int, kernel_w: int, stride_h: int, stride_w: int, global_pooling: int,
            caffe_flavor: int, pad_h0: int, pad_w0: int, pad_h1: int, pad_w1: int) -> tuple[np.ndarray, ...]:
    # pad_h1 and pad_w1 are recomputed by Tengine from the output size; they only tell a window as large as the
    # plane with no pad (global pooling, as Tengine's shape inference makes it) from a padded one
    if x.ndim != 4:
        raise ValueError(f"Pooling: input must be NCHW (rank 4), got shape {x.shape}")
    if caffe_flavor not in (0, 1, 2):
        raise ValueError(f"Pooling: caffe_flavor must be 0, 1 or 2, got {caffe_flavor}")
    whole = bool(global_pooling) or ((kernel_h, kernel_w) == x.shape[2:] and not (pad_h0 or pad_w0 or pad_h1 or pad_w1))
    ah = _axis(x.shape[2], kernel_h, stride_h, pad_h0, caffe_flavor, whole)
    aw = _axis(x.shape[3], kernel_w, stride_w, pad_w0, caffe_flavor, whole)
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    if alg == 0:
        y = _windows(work, ah, aw, -np.inf).max(axis=(4, 5))
    elif alg == 1:
        sums = _windows(work, ah, aw, 0.0).sum(axis=(4, 5))
        y = sums / np.outer(ah.divisor, aw.divisor).astype(work.dtype)
    else:
        raise ValueError(f"Pooling: alg must be 0 (max) or 1 (average), got {alg}")
    return (y.astype(x.dtype, copy=False),)
