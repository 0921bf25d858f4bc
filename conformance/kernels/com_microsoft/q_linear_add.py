"""com.microsoft QLinearAdd: C = (A_scale * (A - A_zp) + B_scale * (B - B_zp)) / C_scale + C_zp, saturated.

Computed as onnxruntime's CPU kernel computes it (x86, AVX2): the ratios A_scale / C_scale and B_scale / C_scale
in float32, a fixed part C_zp - (ratio_X * X_zp + ratio_Y * Y_zp), then fused multiply-adds, rounded half to even.
Which operand is folded into the fixed part depends on the broadcast: onnxruntime walks the output in spans and an
operand that is constant along a span (broadcast on the innermost axis that varies) is added into the fixed part
first. The real-number formula and this evaluation differ by one in a few near-tie cells.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, f32, fma32, saturate, scalar_param, zero_point_value
from conformance.kernels.registry import kernel


def span_mode(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> str:
    """'a' when A is constant along onnxruntime's broadcast spans, 'b' when B is, else 'general'."""
    out = np.broadcast_shapes(a_shape, b_shape)
    rank = len(out)
    a_full = (1,) * (rank - len(a_shape)) + tuple(a_shape)
    b_full = (1,) * (rank - len(b_shape)) + tuple(b_shape)
    if int(np.prod(a_shape)) == 1:
        return "a"
    if int(np.prod(b_shape)) == 1:
        return "b"
    varying = [k for k in range(rank) if out[k] != 1]
    if varying and a_full[varying[-1]] == 1:
        return "a"
    if varying and b_full[varying[-1]] == 1:
        return "b"
    return "general"


@kernel("com.microsoft", "QLinearAdd", since=1)
def q_linear_add(a: np.ndarray, a_scale: np.ndarray, a_zero_point: np.ndarray | None, b: np.ndarray,
                 b_scale: np.ndarray, b_zero_point: np.ndarray | None, c_scale: np.ndarray,
                 c_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    op = "QLinearAdd"
    dtype = eight_bit(op, a)
    if b.dtype != dtype:
        raise ValueError(f"{op}: A and B must share one type, got {a.dtype} and {b.dtype}")
    sa, sb, sc = (scalar_param(op, n, v) for n, v in (("A_scale", a_scale), ("B_scale", b_scale),
                                                       ("C_scale", c_scale)))
    za, zb, zc = (zero_point_value(scalar_param(op, n, v, dtype)) for n, v in (
        ("A_zero_point", a_zero_point), ("B_zero_point", b_zero_point), ("C_zero_point", c_zero_point)))
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError as e:
        raise ValueError(f"{op}: A {a.shape} and B {b.shape} do not broadcast") from e
    ra, rb = f32(f32(sa) / f32(sc)), f32(f32(sb) / f32(sc))
    av = np.broadcast_to(a, shape).astype(np.float32)
    bv = np.broadcast_to(b, shape).astype(np.float32)
    mode = span_mode(a.shape, b.shape)
    if mode == "general":
        fixed = f32(np.float32(zc) - fma32(ra, np.float32(za), f32(rb * np.float32(zb))))
        value = fma32(av, ra, fma32(bv, rb, fixed))
    else:
        # the spanning operand X comes first in the fixed part; the constant one Y is folded in before X's term,
        # except for a one-element output, where onnxruntime's kernel folds X first
        (x, rx, zx), (y, ry, zy) = ((bv, rb, zb), (av, ra, za)) if mode == "a" else ((av, ra, za), (bv, rb, zb))
        fixed = f32(np.float32(zc) - fma32(rx, np.float32(zx), f32(ry * np.float32(zy))))
        if int(np.prod(shape)) == 1:
            value = fma32(y, ry, fma32(x, rx, fixed))
        else:
            value = fma32(x, rx, fma32(ry, y, fixed))
    return (saturate(value, dtype),)
