"""Convolution (tengine, op id 5): ONNX Conv on NCHW data, Tengine's SAME pads, then the fused activation.

The convolution itself is the ai.onnx Conv reference kernel; this file only translates Tengine's
parameters and applies the activation.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.ai_onnx.conv import conv
from conformance.kernels.registry import kernel


def _axis_pads(size: int, kernel_size: int, stride: int, dilation: int, pad0: int, pad1: int) -> tuple[int, int, int]:
    """(output size, pad before, pad after) for ONNX Conv, following Tengine's infer_shape."""
    span = dilation * (kernel_size - 1) + 1
    if pad0 >= 0:
        return (size + pad0 + pad1 - span) // stride + 1, pad0, max(pad1, 0)
    out = math.ceil(size / stride)
    # Tengine leaves the dilation out of the SAME total; -1 puts the extra row at the end, -2 at the start.
    total = (out - 1) * stride + kernel_size - size
    half = total // 2
    before = half if pad0 == -1 else total - half
    before = max(before, 0)
    # Enough padding after for ONNX to produce `out` rows; extra rows are sliced off below.
    after = max(0, (out - 1) * stride + span - size - before)
    return out, before, after


def _activate(y: np.ndarray, activation: int) -> np.ndarray:
    if activation < 0:
        return y
    if activation == 1:
        return np.asarray(np.clip(y, -1, 1))
    if activation == 6:
        return np.asarray(np.clip(y, 0, 6))
    return np.asarray(np.maximum(y, 0))


@kernel("tengine", "Convolution", since=1)
def convolution(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *, kernel_h: int, kernel_w: int,
                stride_h: int, stride_w: int, dilation_h: int, dilation_w: int, input_channel: int, output_channel: int,
                group: int, activation: int, pad_h0: int, pad_w0: int, pad_h1: int,
                pad_w1: int) -> tuple[np.ndarray, ...]:
    # input_channel and output_channel are documentation: Tengine takes both from the tensors.
    if x.ndim != 4 or weight.ndim != 4:
        raise ValueError(f"Convolution: input {x.shape} and weight {weight.shape} must be NCHW (rank 4)")
    if weight.shape[2:] != (kernel_h, kernel_w):
        raise ValueError(f"Convolution: weight {weight.shape} does not match kernel {kernel_h}x{kernel_w}")
    oh, top, bottom = _axis_pads(x.shape[2], kernel_h, stride_h, dilation_h, pad_h0, pad_h1)
    ow, left, right = _axis_pads(x.shape[3], kernel_w, stride_w, dilation_w, pad_w0, pad_w1)
    m = weight.shape[0]
    if bias is not None:
        if bias.size != m:
            raise ValueError(f"Convolution: bias needs {m} values, got shape {bias.shape}")
        bias = bias.reshape(m)
    (y,) = conv(x, weight, bias, auto_pad="NOTSET", dilations=[dilation_h, dilation_w], group=group,
                kernel_shape=[kernel_h, kernel_w], pads=[top, left, bottom, right], strides=[stride_h, stride_w])
    y = _activate(y[:, :, :oh, :ow], activation)
    return (np.ascontiguousarray(y).astype(x.dtype, copy=False),)
