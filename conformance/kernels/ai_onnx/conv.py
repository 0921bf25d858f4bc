"""Conv (1, 11, 22): N-d grouped convolution by im2col and one batched BLAS matmul per call.

Depthwise convolution (one input channel per group) accumulates over kernel taps instead, which avoids
building the column matrix for a product that has no reduction over channels. With unit strides both read the
input as a FlatImage (every tap one contiguous run, the wide result cropped once); the depthwise sum also runs
over blocks of channels that fit in cache. Both depthwise paths add the same products in the same (tap) order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel
from conformance.kernels.windows import FlatImage, Window, flat_image, im2col, make_window, pad_spatial, tap_view


def _depthwise(xp: np.ndarray, weight: np.ndarray, w: Window) -> np.ndarray:
    c = weight.shape[0]
    wk = weight.reshape(c, -1)
    bshape = (1, c) + (1,) * len(w.kernel)
    y: np.ndarray | None = None
    tmp = None
    for j, tap in enumerate(w.taps()):
        view = tap_view(xp, w, tap)
        if y is None:
            y = view * wk[:, j].reshape(bshape)
            tmp = np.empty_like(y)
        else:
            np.multiply(view, wk[:, j].reshape(bshape), out=tmp)
            y += tmp
    if y is None:
        raise ValueError("Conv: kernel has no taps")
    return y


_BLOCK_BYTES = 1 << 18  # a channel block of the depthwise sum and its scratch stay within a typical L2 cache


def _depthwise_flat(image: FlatImage, weight: np.ndarray) -> np.ndarray:
    """N x C x length wide depthwise sums: y = sum over taps of run(tap) * weight[c, tap], in tap order."""
    n, c = image.data.shape[:2]
    rows = image.data.reshape(n * c, -1)
    wk = np.tile(weight.reshape(c, -1), (n, 1))  # row n * C + c holds channel c's taps
    y = np.empty((n * c, image.length), dtype=image.data.dtype)
    block = max(1, _BLOCK_BYTES // max(1, image.length * y.itemsize))
    tmp = np.empty((min(block, n * c), image.length), dtype=y.dtype)
    for lo in range(0, n * c, block):
        hi = min(lo + block, n * c)
        out, scratch = y[lo:hi], tmp[:hi - lo]
        for j, start in enumerate(image.offsets):
            run = rows[lo:hi, start:start + image.length]
            if j == 0:
                np.multiply(run, wk[lo:hi, :1], out=out)
            else:
                np.multiply(run, wk[lo:hi, j:j + 1], out=scratch)
                out += scratch
    return y.reshape(n, c, image.length)


def check_kernel_shape(op: str, kernel_shape: Sequence[int], weight: np.ndarray) -> list[int]:
    ks = list(weight.shape[2:])
    if [int(k) for k in kernel_shape] != ks:
        raise ValueError(f"{op}: kernel_shape {list(kernel_shape)} does not match W spatial shape {ks}")
    return ks


@kernel("ai.onnx", "Conv", since=1)
def conv(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *, auto_pad: str, dilations: list[int], group: int,
         kernel_shape: list[int], pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3 or weight.ndim != x.ndim:
        raise ValueError(f"Conv: X {x.shape} and W {weight.shape} must both be N x C x spatial...")
    n, c = x.shape[:2]
    m = weight.shape[0]
    if group < 1 or c % group or m % group or weight.shape[1] != c // group:
        raise ValueError(f"Conv: group={group} does not fit X channels {c} and W {weight.shape}")
    if bias is not None and bias.shape != (m,):
        raise ValueError(f"Conv: B must have shape ({m},), got {bias.shape}")
    ks = check_kernel_shape("Conv", kernel_shape, weight)
    spatial = x.shape[2:]
    w = make_window("Conv", spatial, ks, strides=strides, dilations=dilations, pads=pads, auto_pad=auto_pad,
                    ceil_mode=0)  # Conv has no ceil mode
    wt = work_dtype(x)
    wgt = weight.astype(wt, copy=False)
    depthwise = group == c and m == c
    if all(s == 1 for s in w.strides):
        image = flat_image(x.astype(wt, copy=False), w, w.padded_end(spatial))
        if depthwise:
            wide = _depthwise_flat(image, wgt)
        else:
            k = math.prod(ks)
            cols = np.empty((n, c, k, image.length), dtype=wt)
            for j in range(k):
                cols[:, :, j] = image.run(j)
            wide = np.matmul(wgt.reshape(group, m // group, -1), cols.reshape(n, group, (c // group) * k, -1))
        y = image.crop(wide.reshape(n, m, image.length), w)
    else:
        xp = pad_spatial(x.astype(wt, copy=False), w.begin, w.padded_end(spatial), 0)
        if depthwise:
            y = _depthwise(xp, wgt, w)
        else:
            cols = im2col(xp, w).reshape(n, group, (c // group) * math.prod(ks), math.prod(w.out))
            y = np.matmul(wgt.reshape(group, m // group, -1), cols).reshape((n, m, *w.out))
    if bias is not None:
        b = bias.astype(wt, copy=False).reshape((1, m) + (1,) * len(spatial))
        y = y + b if not y.flags.c_contiguous else np.add(y, b, out=y)  # a cropped view gets a fresh array
    return (np.ascontiguousarray(y).astype(x.dtype, copy=False),)
