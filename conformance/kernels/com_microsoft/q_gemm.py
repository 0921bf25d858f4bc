"""com.microsoft QGemm: Y = alpha * (A' - a_zero_point)(B' - b_zero_point) * a_scale * b_scale (+ C), A' and B' A and B
transposed where transA and transB say, quantized with y_scale and y_zero_point when they are given, float32 else.

Computed as onnxruntime computes it: the int32 product plus the int32 C (broadcast to [M, N]; it carries the scale
a_scale * b_scale * alpha, zero point 0), converted to float32 and multiplied by the float32 factor
(alpha * a_scale) * b_scale[n] (divided by y_scale for a quantized output), then for a quantized output rounded half
to even, plus y_zero_point, saturated. b_scale and b_zero_point are per tensor or one per column of B' (N).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import paired_quantization
from conformance.kernels.com_microsoft._qlinear import eight_bit, f32, saturate, scalar_param
from conformance.kernels.registry import kernel


def _per_column(op: str, name: str, value: np.ndarray, n: int) -> np.ndarray:
    if value.ndim == 0 or (value.ndim == 1 and value.shape[0] in (1, n)):
        return value.reshape(-1)
    raise ValueError(f"{op}: {name} must be a scalar or 1-D of length 1 or N={n}, got shape {value.shape}")


@kernel("com.microsoft", "QGemm", since=1)
def q_gemm(a: np.ndarray, a_scale: np.ndarray, a_zero_point: np.ndarray, b: np.ndarray, b_scale: np.ndarray,
           b_zero_point: np.ndarray, c: np.ndarray | None, y_scale: np.ndarray | None,
           y_zero_point: np.ndarray | None, *, alpha: float, transA: int, transB: int) -> tuple[np.ndarray, ...]:
    op = "QGemm"
    eight_bit(op, a)
    eight_bit(op, b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"{op}: A and B must be matrices, got {a.shape} and {b.shape}")
    ma = a.T if transA else a
    mb = b.T if transB else b
    if ma.shape[1] != mb.shape[0]:
        raise ValueError(f"{op}: A' {ma.shape} and B' {mb.shape} do not multiply")
    m, n = ma.shape[0], mb.shape[1]
    sa = scalar_param(op, "a_scale", a_scale)
    za = int(scalar_param(op, "a_zero_point", a_zero_point, a.dtype))
    if b_zero_point.dtype != b.dtype:
        raise ValueError(f"{op}: b_zero_point must be of B's type {b.dtype}, got {b_zero_point.dtype}")
    if not paired_quantization(b_scale, b_zero_point):
        raise ValueError(f"{op}: b_scale {b_scale.shape} and b_zero_point {b_zero_point.shape} must share a shape")
    sb = _per_column(op, "b_scale", b_scale, n).astype(np.float32)
    zb = _per_column(op, "b_zero_point", b_zero_point, n).astype(np.int64)
    if (y_scale is None) != (y_zero_point is None):
        raise ValueError(f"{op}: y_scale and y_zero_point must be given together")
    acc = (ma.astype(np.int64) - za) @ (mb.astype(np.int64) - zb[None, :])
    if c is not None:
        if c.dtype != np.int32:
            raise ValueError(f"{op}: C must be int32, got {c.dtype}")
        if c.ndim > 2 or not all(d in (1, t) for d, t in zip(c.shape[::-1], (n, m), strict=False)):
            raise ValueError(f"{op}: C {c.shape} does not broadcast to [M, N] = [{m}, {n}]")
        acc = acc + c.astype(np.int64)
    acc32 = acc.astype(np.int32)  # onnxruntime accumulates in int32 (wrapping)
    factor = f32(f32(np.float32(alpha) * f32(sa)) * sb)
    if y_scale is None:
        return (f32(acc32.astype(np.float32) * factor[None, :]),)
    ys = scalar_param(op, "y_scale", y_scale)
    yz = scalar_param(op, "y_zero_point", y_zero_point)
    assert yz is not None
    eight_bit(op, yz)
    factor = f32(factor / f32(ys))
    value = f32(acc32.astype(np.float32) * factor[None, :])
    return (saturate(np.rint(value).astype(np.float64) + int(yz), yz.dtype),)
