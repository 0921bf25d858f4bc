"""com.microsoft QLinearWhere: Z = where(condition, X, Y), X and Y requantized to Z's scale and zero point.

As onnxruntime does, X and Y each pass through a 256-entry table (dequantized in float32, divided by z_scale,
rounded half to even, plus z_zero_point, saturated) and the three operands broadcast as numpy's where does.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, requantized, scalar_param
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearWhere", since=1)
def q_linear_where(condition: np.ndarray, x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray,
                   y: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray, z_scale: np.ndarray,
                   z_zero_point: np.ndarray) -> tuple[np.ndarray, ...]:
    op = "QLinearWhere"
    dtype = eight_bit(op, x)
    if y.dtype != dtype:
        raise ValueError(f"{op}: X and Y must share one type, got {x.dtype} and {y.dtype}")
    try:
        np.broadcast_shapes(condition.shape, x.shape, y.shape)
    except ValueError as e:
        raise ValueError(f"{op}: condition {condition.shape}, X {x.shape} and Y {y.shape} do not broadcast") from e
    zs, zz = scalar_param(op, "z_scale", z_scale), scalar_param(op, "z_zero_point", z_zero_point, dtype)
    xq = requantized(op, x, scalar_param(op, "x_scale", x_scale), scalar_param(op, "x_zero_point", x_zero_point,
                                                                              dtype), zs, zz)
    yq = requantized(op, y, scalar_param(op, "y_scale", y_scale), scalar_param(op, "y_zero_point", y_zero_point,
                                                                              dtype), zs, zz)
    return (np.asarray(np.where(condition.astype(bool), xq, yq)).astype(dtype),)
