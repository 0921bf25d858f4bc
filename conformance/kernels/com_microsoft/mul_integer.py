"""com.microsoft MulInteger: C = (A - A_zero_point) * (B - B_zero_point) in int32, broadcast as numpy does.

onnxruntime has no CPU kernel for it; the products of two 8-bit differences always fit in int32.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, scalar_param, zero_point_value
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "MulInteger", since=1)
def mul_integer(a: np.ndarray, a_zero_point: np.ndarray | None, b: np.ndarray,
                b_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    op = "MulInteger"
    dtype = eight_bit(op, a)
    if b.dtype != dtype:
        raise ValueError(f"{op}: A and B must share one type, got {a.dtype} and {b.dtype}")
    za = zero_point_value(scalar_param(op, "A_zero_point", a_zero_point, dtype))
    zb = zero_point_value(scalar_param(op, "B_zero_point", b_zero_point, dtype))
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError as e:
        raise ValueError(f"{op}: A {a.shape} and B {b.shape} do not broadcast") from e
    return (((a.astype(np.int32) - za) * (b.astype(np.int32) - zb)).astype(np.int32),)
