"""QLinearMatMul (10, 21): the int32 product of the zero-point-shifted operands, times a_scale * b_scale / y_scale
(per tensor, per row of a, per column of b), rounded half to even, plus y_zero_point, saturated to y's type.
Float8 operands (21) multiply exactly in float32 after their zero points are subtracted; the scaled sum plus
y_zero_point converts to y's float8 type as QuantizeLinear does (round to nearest even, saturating)."""

from __future__ import annotations

import numpy as np

from conformance.element_types import ML_FLOATS, element_of
from conformance.kernels.ai_onnx._common import paired_quantization, round_add_saturate
from conformance.kernels.ai_onnx._narrow import to_narrow, widened
from conformance.kernels.ai_onnx.mat_mul_integer import integer_product, per_column, per_row
from conformance.kernels.registry import kernel


def _scale(x: np.ndarray) -> np.ndarray:
    """A scale in the precision the product is scaled in: float32 (float16 scales widen to it)."""
    return x.astype(np.float32, copy=False)


@kernel("ai.onnx", "QLinearMatMul", since=10, exact_types=True)
def q_linear_mat_mul(a: np.ndarray, a_scale: np.ndarray, a_zero_point: np.ndarray, b: np.ndarray,
                     b_scale: np.ndarray, b_zero_point: np.ndarray, y_scale: np.ndarray,
                     y_zero_point: np.ndarray) -> tuple[np.ndarray, ...]:
    op = "QLinearMatMul"
    for name, scale, zero_point in (("a", a_scale, a_zero_point), ("b", b_scale, b_zero_point),
                                    ("y", y_scale, y_zero_point)):
        if not paired_quantization(scale, zero_point):
            raise ValueError(f"{op}: {name}_scale {scale.shape} and {name}_zero_point {zero_point.shape} differ")
    if y_scale.size != 1:
        raise ValueError(f"{op}: y_scale must have one element, got {y_scale.shape}")
    a2 = a.reshape(1, -1) if a.ndim == 1 else a  # 1-D operands promoted as numpy.matmul does
    b2 = b.reshape(-1, 1) if b.ndim == 1 else b
    target = element_of(y_zero_point.dtype)
    if target in ML_FLOATS:
        acc = np.matmul(widened(a2).astype(np.float32) - per_row(op, a2, widened(a_zero_point).astype(np.float32)),
                        widened(b2).astype(np.float32) - per_column(op, b2, widened(b_zero_point).astype(np.float32)))
    else:
        acc = integer_product(op, a2, b2, a_zero_point, b_zero_point)
    sa = per_row(op, a2, _scale(a_scale))  # scales share their zero points' layout
    sb = per_column(op, b2, _scale(b_scale))
    scaled = acc.astype(np.float32) * ((sa * sb) / _scale(y_scale).reshape(()))
    if b.ndim == 1:  # ... and their promoted dims dropped again
        scaled = scaled[..., 0]
    if a.ndim == 1:
        scaled = scaled[..., 0, :] if b.ndim > 1 else scaled[..., 0]
    if target in ML_FLOATS:
        return (to_narrow(scaled + widened(y_zero_point).astype(np.float32).reshape(()), target),)
    return (round_add_saturate(scaled, y_zero_point.reshape(()), y_zero_point.dtype),)
