"""com.microsoft QLinearAveragePool: AveragePool on dequantized X, quantized with y_scale and y_zero_point.

Computed as onnxruntime computes it: each value dequantized in float32, each window summed in float32 over its
positions inside X in row-major order, divided by the count (the kernel's size with count_include_pad=1, else
the positions inside X), then quantized as round_half_even(mean / y_scale + y_zero_point) in float32, saturated.
channels_last=1 reads X as [N, spatial..., C].
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import (
    dequantized,
    eight_bit,
    f32,
    saturate,
    scalar_param,
    zero_point_value,
)
from conformance.kernels.registry import kernel
from conformance.kernels.windows import make_window, pad_spatial, tap_view


@kernel("com.microsoft", "QLinearAveragePool", since=1)
def q_linear_average_pool(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, y_scale: np.ndarray,
                          y_zero_point: np.ndarray | None, *, auto_pad: str, ceil_mode: int, channels_last: int,
                          count_include_pad: int, kernel_shape: list[int], pads: list[int],
                          strides: list[int]) -> tuple[np.ndarray, ...]:
    op = "QLinearAveragePool"
    dtype = eight_bit(op, x)
    if x.ndim < 3:
        raise ValueError(f"{op}: X must have rank >= 3, got {x.shape}")
    xs, ys = scalar_param(op, "x_scale", x_scale), scalar_param(op, "y_scale", y_scale)
    xz = scalar_param(op, "x_zero_point", x_zero_point, dtype)
    yz = zero_point_value(scalar_param(op, "y_zero_point", y_zero_point, dtype))
    nchw = np.moveaxis(x, -1, 1) if channels_last else x
    spatial = nchw.shape[2:]
    w = make_window(op, spatial, kernel_shape, strides=strides, dilations=[1] * len(spatial), pads=pads,
                    auto_pad=auto_pad, ceil_mode=ceil_mode)
    end = w.padded_end(spatial)
    values = pad_spatial(dequantized(nchw, xs, xz), w.begin, end, 0)
    inside = pad_spatial(np.ones(spatial, np.int64), w.begin, end, 0)
    total = np.zeros(nchw.shape[:2] + w.out, np.float32)
    count = np.zeros(w.out, np.int64)
    for tap in w.taps():
        total = f32(total + tap_view(values, w, tap))
        count = count + tap_view(inside, w, tap)
    if count_include_pad:
        count = np.full(w.out, int(np.prod(w.kernel)), np.int64)
    if np.any(count == 0):
        raise ValueError(f"{op}: a window covers no input position")
    mean = f32(total / count.astype(np.float32))
    y = saturate(np.rint(f32(f32(mean / f32(ys)) + np.float32(yz))), dtype)
    return (np.ascontiguousarray(np.moveaxis(y, 1, -1)) if channels_last else y,)
