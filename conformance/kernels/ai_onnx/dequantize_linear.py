"""DequantizeLinear (10 ... 28): y = (x - x_zero_point) * x_scale with scale and zero point per tensor, per axis (13)
or per block (21). y has x_scale's type (float before 19), or output_dtype's (23), which is also the precision of
the product: the exact difference times the scale, rounded once to y's type. x of a type ml_dtypes holds (float8,
float4, int4, int2) widens exactly first; a bfloat16 y is ml_dtypes' bfloat16."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.element_types import numpy_dtype
from conformance.kernels.ai_onnx._common import quantization_layout
from conformance.kernels.ai_onnx._narrow import widened
from conformance.kernels.registry import kernel

OP = "DequantizeLinear"
FLOAT_OUTPUTS: dict[int, np.dtype[Any]] = {1: np.dtype(np.float32), 10: np.dtype(np.float16),
                                           16: numpy_dtype("bfloat16")}


def dequantize(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, *, axis: int, block_size: int,
               out: np.dtype) -> np.ndarray:
    if x_zero_point is not None and x_zero_point.size == 1 and x_scale.size == 1:
        x_zero_point = x_zero_point.reshape(x_scale.shape)  # [1] and [] both mean per-tensor (dequantizelinear_c1)
    if x_zero_point is not None and (x_zero_point.shape != x_scale.shape or x_zero_point.dtype != x.dtype):
        raise ValueError(f"{OP}: x_zero_point {x_zero_point.dtype}{x_zero_point.shape} must have x's type and "
                         f"x_scale's shape {x_scale.shape}")
    wide = widened(x)
    exact = np.dtype(np.int64) if wide.dtype.kind in "iu" else np.dtype(np.float64)
    difference = wide.astype(exact)
    if x_zero_point is not None:
        difference = difference - quantization_layout(OP, "x_zero_point", widened(x_zero_point).astype(exact),
                                                      x.shape, axis, block_size)
    scale = quantization_layout(OP, "x_scale", widened(x_scale), x.shape, axis, block_size).astype(np.float64)
    return np.asarray((difference * scale).astype(out))


@kernel("ai.onnx", "DequantizeLinear", since=10, until=12, exact_types=True)
def dequantize_linear_per_tensor(x: np.ndarray, x_scale: np.ndarray,
                                 x_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if x_scale.size != 1 or x_scale.ndim > 1:
        raise ValueError(f"{OP}: x_scale must be a scalar in version 10, got {x_scale.shape}")
    return (dequantize(x, x_scale, x_zero_point, axis=0, block_size=0, out=np.dtype(np.float32)),)


@kernel("ai.onnx", "DequantizeLinear", since=13, until=20, exact_types=True)
def dequantize_linear_per_axis(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, *,
                               axis: int) -> tuple[np.ndarray, ...]:
    return (dequantize(x, x_scale, x_zero_point, axis=axis, block_size=0, out=x_scale.dtype),)


@kernel("ai.onnx", "DequantizeLinear", since=21, until=22, exact_types=True)
def dequantize_linear_blocked(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, *, axis: int,
                              block_size: int) -> tuple[np.ndarray, ...]:
    return (dequantize(x, x_scale, x_zero_point, axis=axis, block_size=block_size, out=x_scale.dtype),)


@kernel("ai.onnx", "DequantizeLinear", since=23, exact_types=True)
def dequantize_linear(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, *, axis: int,
                      block_size: int, output_dtype: int) -> tuple[np.ndarray, ...]:
    if output_dtype and output_dtype not in FLOAT_OUTPUTS:
        raise ValueError(f"{OP}: output_dtype {output_dtype} is not float, float16 or bfloat16")
    out = FLOAT_OUTPUTS[output_dtype] if output_dtype else x_scale.dtype
    return (dequantize(x, x_scale, x_zero_point, axis=axis, block_size=block_size, out=out),)
