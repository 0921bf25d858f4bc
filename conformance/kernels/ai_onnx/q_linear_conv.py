"""QLinearConv (10): the int32 convolution of the zero-point-shifted operands plus the int32 bias, times
x_scale * w_scale / y_scale (w_scale per tensor or per output channel) in float32, rounded half to even, plus
y_zero_point, saturated to y's type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import paired_quantization, round_add_saturate
from conformance.kernels.ai_onnx.conv import conv
from conformance.kernels.ai_onnx.conv_integer import shifted
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "QLinearConv", since=10)
def q_linear_conv(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray, w: np.ndarray, w_scale: np.ndarray,
                  w_zero_point: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray, bias: np.ndarray | None, *,
                  auto_pad: str, dilations: list[int], group: int, kernel_shape: list[int], pads: list[int],
                  strides: list[int]) -> tuple[np.ndarray, ...]:
    op = "QLinearConv"
    if x_scale.size != 1 or y_scale.size != 1 or y_zero_point.size != 1:
        raise ValueError(f"{op}: x_scale, y_scale and y_zero_point must be scalars")
    if not paired_quantization(w_scale, w_zero_point) or w_scale.size not in (1, w.shape[0]):
        raise ValueError(f"{op}: w_scale {w_scale.shape} and w_zero_point {w_zero_point.shape} must be scalars or "
                         f"one per filter")
    xs, ws = shifted(op, x, x_zero_point, w, w_zero_point)
    (acc,) = conv(xs, ws, None if bias is None else bias.astype(np.int32), auto_pad=auto_pad, dilations=dilations,
                  group=group, kernel_shape=kernel_shape, pads=pads, strides=strides)
    per_filter = w_scale.astype(np.float32).reshape((-1,) + (1,) * (x.ndim - 2)) if w_scale.size > 1 else \
        w_scale.astype(np.float32).reshape(())
    multiplier = (x_scale.astype(np.float32).reshape(()) * per_filter) / y_scale.astype(np.float32).reshape(())
    scaled = acc.astype(np.float32) * multiplier
    return (round_add_saturate(scaled, y_zero_point.reshape(()), y_zero_point.dtype),)
