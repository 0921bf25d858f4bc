"""com.microsoft QLinearMul: C = (A_scale * (A - A_zp)) * (B_scale * (B - B_zp)) / C_scale + C_zp, saturated.

Computed as onnxruntime's CPU kernel computes it: the integer product (A - A_zp) * (B - B_zp) converted to float32,
times the float32 ratio (A_scale * B_scale) / C_scale, plus C_zp in float32, rounded half to even.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, f32, saturate, scalar_param, zero_point_value
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearMul", since=1)
def q_linear_mul(a: np.ndarray, a_scale: np.ndarray, a_zero_point: np.ndarray | None, b: np.ndarray,
                 b_scale: np.ndarray, b_zero_point: np.ndarray | None, c_scale: np.ndarray,
                 c_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    op = "QLinearMul"
    dtype = eight_bit(op, a)
    if b.dtype != dtype:
        raise ValueError(f"{op}: A and B must share one type, got {a.dtype} and {b.dtype}")
    sa, sb, sc = (scalar_param(op, n, v) for n, v in (("A_scale", a_scale), ("B_scale", b_scale),
                                                       ("C_scale", c_scale)))
    za, zb, zc = (zero_point_value(scalar_param(op, n, v, dtype)) for n, v in (
        ("A_zero_point", a_zero_point), ("B_zero_point", b_zero_point), ("C_zero_point", c_zero_point)))
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError as e:
        raise ValueError(f"{op}: A {a.shape} and B {b.shape} do not broadcast") from e
    ratio = f32(f32(f32(sa) * f32(sb)) / f32(sc))
    product = (a.astype(np.int32) - za) * (b.astype(np.int32) - zb)
    value = f32(f32(product.astype(np.float32) * ratio) + np.float32(zc))
    return (saturate(value, dtype),)
