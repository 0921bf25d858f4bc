"""com.microsoft QLinearSigmoid: Y = quantize(sigmoid(dequantize(X))) through a 256-entry lookup table.

onnxruntime builds the table from every 8-bit value dequantized in float32 (X_scale * (x - X_zero_point)), maps it
with MLAS's logistic function (Eigen's rational approximation: the input clamped to [-18, 18], an odd degree-9
numerator over an even degree-10 denominator in x, evaluated by Horner's rule with fused multiply-adds, plus 0.5,
clamped to [0, 1]) and quantizes it (divided by Y_scale, rounded half to even, plus Y_zero_point, saturated).
The approximation stays within a few float32 units of the exact sigmoid; following it keeps ties where onnxruntime
puts them.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import (
    apply_table,
    eight_bit,
    f32,
    fma32,
    lookup_table,
    scalar_param,
)
from conformance.kernels.registry import kernel

# Eigen's coefficients for the logistic function's rational approximation (odd numerator, even denominator)
_NUMERATOR = (4.37031012579801e-11, 1.15627324459942e-07, 6.08574864600143e-05, 8.51377133304701e-03,
              2.48287947061529e-01)
_DENOMINATOR = (6.10247389755681e-13, 5.76102136993427e-09, 6.29106785017040e-06, 1.70198817374094e-03,
                1.16817656904453e-01, 9.93151921023180e-01)


def logistic(x: np.ndarray) -> np.ndarray:
    """MLAS's float32 logistic: the rational approximation above, evaluated with fused multiply-adds."""
    v = np.clip(f32(x), np.float32(-18.0), np.float32(18.0))
    square = f32(v * v)
    p = fma32(square, np.float32(_NUMERATOR[0]), np.float32(_NUMERATOR[1]))
    for c in _NUMERATOR[2:]:
        p = fma32(p, square, np.float32(c))
    p = f32(p * v)
    q = fma32(square, np.float32(_DENOMINATOR[0]), np.float32(_DENOMINATOR[1]))
    for c in _DENOMINATOR[2:]:
        q = fma32(q, square, np.float32(c))
    return np.asarray(np.clip(f32(f32(p / q) + np.float32(0.5)), np.float32(0.0), np.float32(1.0)))


@kernel("com.microsoft", "QLinearSigmoid", since=1)
def q_linear_sigmoid(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, y_scale: np.ndarray,
                     y_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    op = "QLinearSigmoid"
    dtype = eight_bit(op, x)
    table = lookup_table(dtype, scalar_param(op, "X_scale", x_scale), scalar_param(op, "X_zero_point", x_zero_point,
                                                                                     dtype),
                         scalar_param(op, "Y_scale", y_scale), scalar_param(op, "Y_zero_point", y_zero_point, dtype),
                         logistic)
    return (apply_table(table, x),)
