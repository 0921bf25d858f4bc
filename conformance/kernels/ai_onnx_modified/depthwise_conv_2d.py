"""DepthwiseConv2d (ai.onnx.modified): tf.nn.depthwise_conv2d on NHWC data with SAME/VALID padding.

Sliding windows over the padded input and one einsum: no loop over elements or taps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from conformance.kernels.registry import kernel


def _axis_padding(size: int, kernel: int, stride: int, dilation: int, mode: str) -> tuple[int, int, int]:
    """(output size, pad before, pad after) of one spatial axis, TensorFlow's rule."""
    span = (kernel - 1) * dilation + 1
    if mode == "SAME":
        out = math.ceil(size / stride)
        total = max(0, (out - 1) * stride + span - size)
        return out, total // 2, total - total // 2
    if mode == "VALID":
        out = math.ceil((size - span + 1) / stride)
        if out < 1:
            raise ValueError(f"DepthwiseConv2d: VALID window of span {span} does not fit in {size}")
        return out, 0, 0
    raise ValueError(f"DepthwiseConv2d: pads must be SAME or VALID, got {mode!r}")


@kernel("ai.onnx.modified", "DepthwiseConv2d", since=1)
def depthwise_conv_2d(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, *, kernel_shape: Sequence[int] | None,
                      strides: Sequence[int], dilations: Sequence[int], pads: str) -> tuple[np.ndarray, ...]:
    if x.ndim != 4 or w.ndim != 4 or w.shape[2] != x.shape[3]:
        raise ValueError(f"DepthwiseConv2d: X {x.shape} must be NHWC and W {w.shape} [kh, kw, C, M]")
    kh, kw, c, m = w.shape
    if kernel_shape is not None and [int(k) for k in kernel_shape] != [kh, kw]:
        raise ValueError(f"DepthwiseConv2d: kernel_shape {list(kernel_shape)} does not match W {w.shape}")
    sh, sw = (int(s) for s in strides)
    dh, dw = (int(d) for d in dilations)
    oh, top, bottom = _axis_padding(x.shape[1], kh, sh, dh, pads)
    ow, left, right = _axis_padding(x.shape[2], kw, sw, dw, pads)
    work = np.promote_types(x.dtype, np.float32)
    xp = np.pad(x.astype(work, copy=False), ((0, 0), (top, bottom), (left, right), (0, 0)))
    span_h, span_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    # windows: [N, OH', OW', C, span_h, span_w]; keep every stride-th window and every dilation-th tap.
    windows = sliding_window_view(xp, (span_h, span_w), axis=(1, 2))
    windows = windows[:, ::sh, ::sw][:, :oh, :ow, :, ::dh, ::dw]
    y = np.einsum("nhwcij,ijcm->nhwcm", windows, w.astype(work, copy=False)).reshape(x.shape[0], oh, ow, c * m)
    if b is not None:
        if b.size != c * m:
            raise ValueError(f"DepthwiseConv2d: B must have C * M = {c * m} values, got shape {b.shape}")
        y = y + b.reshape(c * m).astype(work, copy=False)
    return (y.astype(x.dtype, copy=False),)
