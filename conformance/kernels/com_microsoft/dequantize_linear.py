"""com.microsoft DequantizeLinear: y = (x - x_zero_point) * x_scale, in the scale's float type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._quant import QUANT_TYPES, param_shape
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "DequantizeLinear", since=1)
def dequantize_linear(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, *,
                      axis: int | None) -> tuple[np.ndarray, ...]:
    if x.dtype not in (*QUANT_TYPES, np.dtype(np.int32)):
        raise ValueError(f"DequantizeLinear: unsupported input type {x.dtype}")
    if x_zero_point is not None and x_zero_point.dtype != x.dtype:
        raise ValueError(f"DequantizeLinear: zero point type {x_zero_point.dtype} differs from x type {x.dtype}")
    if x_scale.dtype not in (np.float32, np.float16):
        raise ValueError(f"DequantizeLinear: scale must be float or float16, got {x_scale.dtype}")
    shape = param_shape("DequantizeLinear", x, x_scale, x_zero_point, axis)
    xi = x.astype(np.int64)
    if x_zero_point is not None:
        xi = xi - x_zero_point.astype(np.int64).reshape(shape)
    y = xi.astype(np.float32) * x_scale.astype(np.float32).reshape(shape)
    return (y.astype(x_scale.dtype),)
