"""L2Pool (tengine, op id 98): square root of the mean of squares over windows of an NHWC tensor."""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from conformance.kernels.registry import kernel


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _axis(size: int, kernel_size: int, stride: int, same: bool) -> tuple[int, int]:
    """(output size, padding before) as Tengine's infer_shape and ConvertPaddingStyleToParameters."""
    out = (size + stride - 1) // stride if same else (size + stride - kernel_size) // stride
    pad = max(0, _trunc_div((out - 1) * stride + kernel_size - size, 2)) if same else 0
    return out, pad


@kernel("tengine", "L2Pool", since=1)
def l2_pool(x: np.ndarray, *, paddingType: int, kernel_h: int, kernel_w: int, stride_h: int,
            stride_w: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"L2Pool: input must be NHWC (rank 4), got shape {x.shape}")
    if min(kernel_h, kernel_w, stride_h, stride_w) < 1:
        raise ValueError("L2Pool: kernel and stride must be at least 1")
    _n, h, w, _c = x.shape
    oh, top = _axis(h, kernel_h, stride_h, paddingType == 1)
    ow, left = _axis(w, kernel_w, stride_w, paddingType == 1)
    if oh < 1 or ow < 1:
        raise ValueError(f"L2Pool: a {kernel_h}x{kernel_w} window does not fit in {h}x{w}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    bottom = max(0, (oh - 1) * stride_h + kernel_h - top - h)
    right = max(0, (ow - 1) * stride_w + kernel_w - left - w)
    pads = ((0, 0), (top, bottom), (left, right), (0, 0))
    squares = np.pad(np.square(work), pads)
    inside = np.pad(np.ones((h, w), work.dtype), pads[1:3])
    view = sliding_window_view(squares, (kernel_h, kernel_w), axis=(1, 2))[:, ::stride_h, ::stride_w][:, :oh, :ow]
    count = sliding_window_view(inside, (kernel_h, kernel_w))[::stride_h, ::stride_w][:oh, :ow].sum(axis=(2, 3))
    total = view.sum(axis=(4, 5))  # [N, OH, OW, C]
    # Tengine divides by the number of real elements in the window; an all-zero window gives 0.
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(total == 0, 0, np.sqrt(total / count[None, :, :, None]))
    return (y.astype(x.dtype, copy=False),)
