"""com.microsoft MatMulIntegerToFloat: (A - a_zero_point) @ (B - b_zero_point), accumulated in int32, times
a_scale * b_scale, plus bias.

A's zero point is per tensor; B's zero point and either scale may be per tensor or per column of B ([N] for a
2-D B, B's shape with dim -2 of 1 otherwise). At most one of the two scales is per column: the product of the
two scales is the per-column multiplier, applied before the bias.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qmatmul import column_scale, one_row_dropped, scale_and_bias, shifted_product
from conformance.kernels.registry import kernel

OP = "MatMulIntegerToFloat"


@kernel("com.microsoft", "MatMulIntegerToFloat", since=1)
def mat_mul_integer_to_float(a: np.ndarray, b: np.ndarray, a_scale: np.ndarray, b_scale: np.ndarray,
                             a_zero_point: np.ndarray | None, b_zero_point: np.ndarray | None,
                             bias: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if a_zero_point is not None and a_zero_point.dtype != a.dtype:
        raise ValueError(f"{OP}: a_zero_point {a_zero_point.dtype} must have A's type {a.dtype}")
    a2 = a.reshape(1, -1) if a.ndim == 1 else a  # a 1-D A is one row, dropped again below
    acc = shifted_product(OP, a2, b, a_zero_point, b_zero_point)
    sa, sb = column_scale(OP, "a_scale", b, a_scale), column_scale(OP, "b_scale", b, b_scale)
    if sa.ndim and sb.ndim:
        raise ValueError(f"{OP}: at most one of a_scale {a_scale.shape} and b_scale {b_scale.shape} may be per column")
    y = scale_and_bias(OP, acc, sa * sb, bias, b)
    return (one_row_dropped(y, a, b).astype(a_scale.dtype),)
