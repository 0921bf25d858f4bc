"""Deconvolution (tengine, op id 6): transposed convolution of NCHW data, then the fused activation.

The transposed convolution is the ai.onnx ConvTranspose reference kernel; this file translates
Tengine's parameters (output_pad_* are ONNX's output_padding) and applies the activation.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.conv_transpose import conv_transpose
from conformance.kernels.registry import kernel


def _activate(y: np.ndarray, activation: int) -> np.ndarray:
    if activation < 0:
        return y
    if activation == 1:
        return np.asarray(np.clip(y, 0, 1))  # Tengine's deconv clamps ReLU1 to [0, 1] (its conv to [-1, 1])
    if activation == 6:
        return np.asarray(np.clip(y, 0, 6))
    return np.asarray(np.maximum(y, 0))


@kernel("tengine", "Deconvolution", since=1)
def deconvolution(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *, num_output: int, kernel_h: int,
                  kernel_w: int, stride_h: int, stride_w: int, pad_w0: int, pad_h0: int, pad_w1: int, pad_h1: int,
                  dilation_h: int, dilation_w: int, group: int, activation: int, output_pad_h0: int,
                  output_pad_w0: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4 or weight.ndim != 4:
        raise ValueError(f"Deconvolution: input {x.shape} and weight {weight.shape} must be rank 4")
    if weight.shape[2:] != (kernel_h, kernel_w) or weight.shape[0] != x.shape[1]:
        raise ValueError(f"Deconvolution: weight {weight.shape} must be [C, num_output / group, "
                         f"{kernel_h}, {kernel_w}] for input {x.shape}")
    m = weight.shape[1] * group
    if m != num_output:
        raise ValueError(f"Deconvolution: weight gives {m} output channels, num_output says {num_output}")
    if bias is not None:
        if bias.size != m:
            raise ValueError(f"Deconvolution: bias needs {m} values, got {bias.shape}")
        bias = bias.reshape(m)
    (y,) = conv_transpose(x, weight, bias, auto_pad="NOTSET", dilations=[dilation_h, dilation_w], group=group,
                          kernel_shape=[kernel_h, kernel_w], output_padding=[output_pad_h0, output_pad_w0],
                          output_shape=None, pads=[pad_h0, pad_w0, pad_h1, pad_w1], strides=[stride_h, stride_w])
    return (_activate(y, activation).astype(x.dtype, copy=False),)
