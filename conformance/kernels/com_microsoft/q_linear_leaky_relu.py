"""com.microsoft QLinearLeakyRelu: Y = quantize(leaky_relu(dequantize(X), alpha)) through a 256-entry lookup table.

onnxruntime dequantizes every 8-bit value in float32 (X_scale * (x - X_zero_point)), keeps it where it is >= 0 and
multiplies it by alpha (float32) elsewhere, then quantizes (divided by Y_scale, rounded half to even, plus
Y_zero_point, saturated).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import apply_table, eight_bit, f32, lookup_table, scalar_param
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearLeakyRelu", since=1)
def q_linear_leaky_relu(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, y_scale: np.ndarray,
                        y_zero_point: np.ndarray | None, *, alpha: float) -> tuple[np.ndarray, ...]:
    op = "QLinearLeakyRelu"
    dtype = eight_bit(op, x)
    slope = np.float32(alpha)

    def leaky(v: np.ndarray) -> np.ndarray:
        return np.where(v >= 0, v, f32(slope * v)).astype(np.float32)

    table = lookup_table(dtype, scalar_param(op, "X_scale", x_scale), scalar_param(op, "X_zero_point", x_zero_point,
                                                                                     dtype),
                         scalar_param(op, "Y_scale", y_scale), scalar_param(op, "Y_zero_point", y_zero_point, dtype),
                         leaky)
    return (apply_table(table, x),)
