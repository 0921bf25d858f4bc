"""QuantizeLinear (10 ... 28): y = saturate(round(x / y_scale) + y_zero_point), rounding half to even, with scale
and zero point per tensor, per axis (13) or per block (21). The division runs in y_scale's type, or in `precision`
(23); an integer y_scale divides exactly (float64). The output type is the zero point's, else `output_dtype` (21),
else uint8. Integer outputs (int4, int2 too) round half to even, add the zero point and saturate; float8 outputs
add the zero point and convert as Cast does (with `saturate`); float4 and float6 outputs round to nearest even,
saturating."""

from __future__ import annotations

import numpy as np

from conformance.element_types import COMPUTE_AS, ML_FLOATS, compute_dtype, element_of, finite_range, numpy_dtype
from conformance.kernels.ai_onnx._common import STASH_DTYPES, quantization_layout
from conformance.kernels.ai_onnx._narrow import to_narrow, widened
from conformance.kernels.registry import kernel
from opset.dtypes import CODE_TO_ELEMENT

OP = "QuantizeLinear"
QUANTIZED = ("uint8", "int8", "uint16", "int16", "uint4", "int4", "uint2", "int2", "float8e4m3fn", "float8e4m3fnuz",
             "float8e5m2", "float8e5m2fnuz", "float4e2m1", "float6e2m3", "float6e3m2")


def output_type(op: str, zero_point: np.ndarray | None, output_dtype: int) -> str:
    """The element type of y: the zero point's, else output_dtype's, else uint8."""
    named = CODE_TO_ELEMENT.get(output_dtype) if output_dtype else None
    if output_dtype and named not in QUANTIZED:
        raise ValueError(f"{op}: output_dtype {output_dtype} is no quantized type")
    if zero_point is not None:
        element = element_of(zero_point.dtype)
        if element not in QUANTIZED:
            raise ValueError(f"{op}: zero point type {zero_point.dtype} is no quantized type")
        if named is not None and named != element:
            raise ValueError(f"{op}: output_dtype {output_dtype} is not the zero point's type {zero_point.dtype}")
        return element
    return named or "uint8"


def division_type(op: str, scale: np.ndarray, precision: int) -> np.dtype:
    """The type the division runs in: `precision`'s, else y_scale's (float64 for an integer scale). A bfloat16
    division runs in float32 and rounds to bfloat16."""
    if precision:
        if precision == 16:
            return numpy_dtype("bfloat16")
        if precision not in STASH_DTYPES:
            raise ValueError(f"{op}: precision {precision} is not float, float16, double or bfloat16")
        return STASH_DTYPES[precision]
    return np.dtype(np.float64) if scale.dtype.kind in "iu" else scale.dtype


def quantize(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int, block_size: int,
             output_dtype: int, precision: int, saturate: int = 1) -> np.ndarray:
    out = output_type(OP, y_zero_point, output_dtype)
    if y_zero_point is not None and y_zero_point.size == 1 and y_scale.size == 1:
        y_zero_point = y_zero_point.reshape(y_scale.shape)  # [1] and [] both mean per-tensor (quantizelinear_c1)
    if y_zero_point is not None and y_zero_point.shape != y_scale.shape:
        raise ValueError(f"{OP}: y_zero_point {y_zero_point.shape} must have y_scale's shape {y_scale.shape}")
    p = division_type(OP, y_scale, precision)
    wide = compute_dtype(p)
    scale = quantization_layout(OP, "y_scale", widened(y_scale), x.shape, axis, block_size).astype(p).astype(wide)
    with np.errstate(over="ignore"):  # an overflow to inf saturates like any large value
        scaled = (widened(x).astype(p).astype(wide) / scale).astype(p).astype(wide)
    zero = None if y_zero_point is None else quantization_layout(OP, "y_zero_point", widened(y_zero_point), x.shape,
                                                                 axis, block_size)
    return _quantized(scaled, zero, out, saturate)


def _quantized(scaled: np.ndarray, zero: np.ndarray | None, element: str, saturate: int) -> np.ndarray:
    if element in ML_FLOATS:
        total = scaled.astype(np.float64) + (0.0 if zero is None else zero.astype(np.float64))
        return to_narrow(total, element, saturate=bool(saturate))
    low, high = finite_range(element)
    y = np.rint(np.asarray(scaled, dtype=np.float64))
    if zero is not None:
        y = y + zero.astype(np.float64)
    target = numpy_dtype(element)
    return np.asarray(np.clip(y, low, high).astype(COMPUTE_AS.get(element, target)).astype(target))


@kernel("ai.onnx", "QuantizeLinear", since=10, until=12, exact_types=True)
def quantize_linear_per_tensor(x: np.ndarray, y_scale: np.ndarray,
                               y_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if y_scale.size != 1 or y_scale.ndim > 1:
        raise ValueError(f"{OP}: y_scale must be a scalar in version 10, got {y_scale.shape}")
    return (quantize(x, y_scale, y_zero_point, axis=0, block_size=0, output_dtype=0, precision=0),)


@kernel("ai.onnx", "QuantizeLinear", since=13, until=18, exact_types=True)
def quantize_linear_per_axis(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *,
                             axis: int) -> tuple[np.ndarray, ...]:
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=0, output_dtype=0, precision=0),)


@kernel("ai.onnx", "QuantizeLinear", since=19, until=20, exact_types=True)
def quantize_linear_saturate(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int,
                             saturate: int) -> tuple[np.ndarray, ...]:
    # saturate applies to float8 outputs only; integer outputs always saturate
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=0, output_dtype=0, precision=0,
                     saturate=saturate),)


@kernel("ai.onnx", "QuantizeLinear", since=21, until=22, exact_types=True)
def quantize_linear_blocked(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int,
                            saturate: int, block_size: int, output_dtype: int) -> tuple[np.ndarray, ...]:
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=block_size, output_dtype=output_dtype,
                     precision=0, saturate=saturate),)


@kernel("ai.onnx", "QuantizeLinear", since=23, exact_types=True)
def quantize_linear(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *, axis: int,
                    saturate: int, block_size: int, output_dtype: int, precision: int) -> tuple[np.ndarray, ...]:
    return (quantize(x, y_scale, y_zero_point, axis=axis, block_size=block_size, output_dtype=output_dtype,
                     precision=precision, saturate=saturate),)
