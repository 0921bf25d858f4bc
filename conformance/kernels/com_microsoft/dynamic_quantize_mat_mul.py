"""com.microsoft DynamicQuantizeMatMul: A quantized to uint8 on the fly, then MatMulIntegerToFloat.

A's parameters are onnxruntime's (float32 throughout): the range [min(A), max(A)] widened to hold 0,
scale = (max - min) / 255 (1 where max == min), zero point = round_half_even(clamp(-min / scale, 0, 255)),
qA = saturate(round_half_even(A / scale) + zero point). Then Y = (qA - zp) @ (B - b_zero_point) in int32, times
scale * b_scale (per tensor or per column of B), plus bias.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qmatmul import column_scale, one_row_dropped, scale_and_bias, shifted_product
from conformance.kernels.registry import kernel

OP = "DynamicQuantizeMatMul"


def dynamic_uint8(x: np.ndarray) -> tuple[np.ndarray, np.float32, np.uint8]:
    """x quantized to uint8 with the scale and zero point onnxruntime derives from its range."""
    x = x.astype(np.float32)
    lo = np.float32(min(float(x.min()), 0.0)) if x.size else np.float32(0)
    hi = np.float32(max(float(x.max()), 0.0)) if x.size else np.float32(0)
    scale = np.float32(1.0) if hi == lo else np.float32((hi - lo) / np.float32(255))
    zp = np.uint8(np.rint(np.clip(np.float32(0) - lo / scale, 0, 255)))
    q = np.clip(np.rint(x / scale) + np.float32(zp), 0, 255).astype(np.uint8)
    return q, scale, zp


@kernel("com.microsoft", "DynamicQuantizeMatMul", since=1)
def dynamic_quantize_mat_mul(a: np.ndarray, b: np.ndarray, b_scale: np.ndarray, b_zero_point: np.ndarray | None,
                             bias: np.ndarray | None) -> tuple[np.ndarray, ...]:
    q, scale, zp = dynamic_uint8(a.reshape(1, -1) if a.ndim == 1 else a)  # a 1-D A is one row, dropped below
    acc = shifted_product(OP, q, b, np.asarray(zp), b_zero_point)
    multiplier = np.float32(scale) * column_scale(OP, "b_scale", b, b_scale)
    return (one_row_dropped(scale_and_bias(OP, acc, multiplier, bias, b), a, b),)
