"""com.microsoft QLinearGlobalAveragePool: the mean over the spatial axes of dequantized X, quantized.

Computed as onnxruntime (MLAS) computes it: the int32 sum of each image minus x_zero_point * size, times the
float32 scale x_scale / (y_scale * size), rounded half to even, plus y_zero_point, saturated. channels_last=1
reads X as [N, spatial..., C] and writes [N, 1..., C].
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, f32, saturate, scalar_param, zero_point_value
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearGlobalAveragePool", since=1)
def q_linear_global_average_pool(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray, y_scale: np.ndarray,
                                 y_zero_point: np.ndarray, *, channels_last: int) -> tuple[np.ndarray, ...]:
    op = "QLinearGlobalAveragePool"
    dtype = eight_bit(op, x)
    if x.ndim < 3:
        raise ValueError(f"{op}: X must have rank >= 3 (N, C and at least one spatial axis), got {x.shape}")
    xs, ys = scalar_param(op, "x_scale", x_scale), scalar_param(op, "y_scale", y_scale)
    xz = zero_point_value(scalar_param(op, "x_zero_point", x_zero_point, dtype))
    yz = zero_point_value(scalar_param(op, "y_zero_point", y_zero_point, dtype))
    axes = tuple(range(1, x.ndim - 1)) if channels_last else tuple(range(2, x.ndim))
    size = int(np.prod([x.shape[a] for a in axes]))
    if size == 0:
        raise ValueError(f"{op}: the spatial axes must not be empty")
    scale = f32(f32(xs) / f32(f32(ys) * np.float32(size)))
    if not 2.0 ** -32 <= float(scale) < 256.0:
        raise ValueError(f"{op}: x_scale / (y_scale * image size) = {float(scale)} lies outside [2^-32, 256)")
    acc = x.astype(np.int64).sum(axis=axes, keepdims=True) - xz * size
    value = f32(acc.astype(np.float32) * scale)
    return (saturate(np.rint(value).astype(np.float64) + yz, dtype),)
