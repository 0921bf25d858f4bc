"""Conv (1, 11, 22): N-d grouped convolution by im2col and one batched BLAS matmul per call.

Depthwise convolution (one input channel per group) accumulates over kernel taps instead, which avoids
building the column matrix for a product that has no reduction over channels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel
from conformance.kernels.windows import Window, im2col, make_window, pad_spatial, tap_view


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
    xp = pad_spatial(x.astype(wt, copy=False), w.begin, w.padded_end(spatial), 0)
    wgt = weight.astype(wt, copy=False)
    if group == c and m == c:
        y = _depthwise(xp, wgt, w)
    else:
        cols = im2col(xp, w).reshape(n, group, (c // group) * math.prod(ks), math.prod(w.out))
        y = np.matmul(wgt.reshape(group, m // group, -1), cols).reshape((n, m, *w.out))
    if bias is not None:
        y += bias.astype(wt, copy=False).reshape((1, m) + (1,) * len(spatial))
    return (y.astype(x.dtype, copy=False),)
