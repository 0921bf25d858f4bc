"""com.microsoft QLinearConv: ai.onnx's QLinearConv (10) with channels_last.

The int32 convolution of the zero-point-shifted operands plus the int32 bias, times the float32 multiplier
(x_scale * w_scale) / y_scale (w_scale per tensor or per output channel), rounded half to even, plus y_zero_point,
saturated: onnxruntime's requantization. channels_last=1 reads x as [N, spatial..., C] and writes y as
[N, spatial..., M]; w keeps its [M, C / group, kernel...] layout.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.q_linear_conv import q_linear_conv as onnx_q_linear_conv
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearConv", since=1)
def q_linear_conv(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray, w: np.ndarray, w_scale: np.ndarray,
                  w_zero_point: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray, b: np.ndarray | None, *,
                  auto_pad: str, channels_last: int, dilations: list[int], group: int, kernel_shape: list[int],
                  pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"QLinearConv: x must have rank >= 3, got {x.shape}")
    nchw = np.ascontiguousarray(np.moveaxis(x, -1, 1)) if channels_last else x
    (y,) = onnx_q_linear_conv(nchw, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, b,
                              auto_pad=auto_pad, dilations=dilations, group=group, kernel_shape=kernel_shape,
                              pads=pads, strides=strides)
    return (np.ascontiguousarray(np.moveaxis(y, 1, -1)) if channels_last else y,)
