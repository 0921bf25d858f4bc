"""QuantizeLinear (10 ... 28): y = saturate(round(x / y_scale) + y_zero_point), rounding half to even, with scale
and zero point per tensor, per axis (13) or per block (21). The division runs in y_scale's type, or in `precision`
(23); an integer y_scale divides exactly (float64). The output type is the zero point's, else `output_dtype` (21),
else uint8. Float8, 4-bit and 2-bit outputs and bfloat16 division have no numpy type: such cases are unsupported."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.protocol import Unsupported
from conformance.kernels.ai_onnx._common import STASH_DTYPES, quantization_layout, round_add_saturate
from conformance.kernels.registry import kernel

OP = "QuantizeLinear"
INTEGER_OUTPUTS: dict[int, np.dtype[Any]] = {2: np.dtype(np.uint8), 3: np.dtype(np.int8), 4: np.dtype(np.uint16),
                                             5: np.dtype(np.int16)}


def output_type(op: str, zero_point: np.ndarray | None, output_dtype: int) -> np.dtype:
    """The zero point's type, else output_dtype's, else uint8 (only integer types numpy holds)."""
    if zero_point is not None:
        if output_dtype and INTEGER_OUTPUTS.get(output_dtype) != zero_point.dtype:
            raise ValueError(f"{op}: output_dtype {output_dtype} is not the zero point's type {zero_point.dtype}")
        if zero_point.dtype not in INTEGER_OUTPUTS.values():  # float8, 4-bit, 2-bit: issue 10's element types
            raise Unsupported(f"{op}: zero point type {zero_point.dtype} has no numpy quantized type")
        return zero_point.dtype
    if not output_dtype:
        return np.dtype(np.uint8)
    if output_dtype not in INTEGER_OUTPUTS:
        raise Unsupported(f"{op}: output_dtype {output_dtype} has no numpy type")
    return INTEGER_OUTPUTS[output_dtype]


def division_type(op: str, scale: np.ndarray, precision: int) -> np.dtype:
    if precision:
        if precision not in STASH_DTYPES:
            raise Unsupported(f"{op}: precision {precision} has no numpy type")
        return STASH_DTYPES[precision]
    return np.dtype(np.float64) if scale.dtype.kind in "iu" else scale.dtype


def quantize(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int, block_size: int,
             output_dtype: int, precision: int) -> np.ndarray:
    out = output_type(OP, y_zero_point, output_dtype)
    if y_zero_point is not None and y_zero_point.size == 1 and y_scale.size == 1:
        y_zero_point = y_zero_point.reshape(y_scale.shape)  # [1] and [] both mean per-tensor (quantizelinear_c1)
    if y_zero_point is not None and y_zero_point.shape != y_scale.shape:
        raise ValueError(f"{OP}: y_zero_point {y_zero_point.shape} must have y_scale's shape {y_scale.shape}")
    p = division_type(OP, y_scale, precision)
    scale = quantization_layout(OP, "y_scale", y_scale, x.shape, axis, block_size).astype(p)
    with np.errstate(over="ignore"):  # an overflow to inf saturates like any large value
        scaled = x.astype(p) / scale
    zero = None if y_zero_point is None else quantization_layout(OP, "y_zero_point", y_zero_point, x.shape, axis,
                                                                 block_size)
    return round_add_saturate(scaled, zero, out)


@kernel("ai.onnx", "QuantizeLinear", since=10, until=12)
def quantize_linear_per_tensor(x: np.ndarray, y_scale: np.ndarray,
                               y_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if y_scale.size != 1 or y_scale.ndim > 1:
        raise ValueError(f"{OP}: y_scale must be a scalar in version 10, got {y_scale.shape}")
    return (quantize(x, y_scale, y_zero_point, axis=0, block_size=0, output_dtype=0, precision=0),)


@kernel("ai.onnx", "QuantizeLinear", since=13, until=18)
def quantize_linear_per_axis(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *,
                             axis: int) -> tuple[np.ndarray, ...]:
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=0, output_dtype=0, precision=0),)


@kernel("ai.onnx", "QuantizeLinear", since=19, until=20)
def quantize_linear_saturate(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int,
                             saturate: int) -> tuple[np.ndarray, ...]:
    # saturate applies to float8 outputs only; integer outputs always saturate
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=0, output_dtype=0, precision=0),)


@kernel("ai.onnx", "QuantizeLinear", since=21, until=22)
def quantize_linear_blocked(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int,
                            saturate: int, block_size: int, output_dtype: int) -> tuple[np.ndarray, ...]:
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=block_size, output_dtype=output_dtype,
                     precision=0),)


@kernel("ai.onnx", "QuantizeLinear", since=23)
def quantize_linear(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int,
                    saturate: int, block_size: int, output_dtype: int, precision: int) -> tuple[np.ndarray, ...]:
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=block_size, output_dtype=output_dtype,
                     precision=precision),)
