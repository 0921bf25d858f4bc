"""Hints of the com.microsoft quantized matmuls (MatMulIntegerToFloat, DynamicQuantizeMatMul, MatMulNBits,
GatherBlockQuantized, QAttention, DynamicQuantizeLSTM): shapes that tie the weights, scales, zero points and bias
to the data, which the schemas state as constraints but the generic builder cannot solve."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import matmul_shapes, positive
from conformance.strategies.hints import OpHint, set_input_shape


def _per_column(draw: DrawFn, b: list[int]) -> list[int]:
    """A shape per column of B: [N] for a 2-D B, B's shape with dim -2 of 1 for a higher rank."""
    return [b[-1]] if len(b) == 2 else [*b[:-2], 1, b[-1]]


def _one_element(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


def _column_or_tensor(draw: DrawFn, b: list[int]) -> list[int]:
    return _per_column(draw, b) if len(b) >= 2 and draw(st.booleans()) else _one_element(draw)


def _integer_matmul_shapes(draw: DrawFn, ctx: DrawContext) -> tuple[list[int], list[int]]:
    a, b = matmul_shapes(draw, ctx)
    if "bias" not in ctx.omitted and len(b) == 1:  # a bias needs a B of rank 2 (its length is B's last dim)
        b = [b[0], draw(st.integers(1, max(1, ctx.max_side)))]
    set_input_shape(ctx, "A", a)
    set_input_shape(ctx, "B", b)
    if "bias" not in ctx.omitted:
        ctx.shapes["bias"] = [b[-1]]
    if "b_zero_point" not in ctx.omitted:
        ctx.shapes["b_zero_point"] = _column_or_tensor(draw, b)
    return a, b


def _mat_mul_integer_to_float_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _, b = _integer_matmul_shapes(draw, ctx)
    scales = [_column_or_tensor(draw, b), _one_element(draw)]  # at most one per column
    if draw(st.booleans()):
        scales.reverse()
    ctx.shapes["a_scale"], ctx.shapes["b_scale"] = scales
    if "a_zero_point" not in ctx.omitted:
        ctx.shapes["a_zero_point"] = _one_element(draw)


def _dynamic_quantize_mat_mul_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _, b = _integer_matmul_shapes(draw, ctx)
    ctx.shapes["b_scale"] = _column_or_tensor(draw, b)


MATMUL_INTEGER_TO_FLOAT_HINT = OpHint(shapes=_mat_mul_integer_to_float_shapes,
                                      values={"a_scale": positive("a_scale"), "b_scale": positive("b_scale")})
DYNAMIC_QUANTIZE_MATMUL_HINT = OpHint(shapes=_dynamic_quantize_mat_mul_shapes, values={"b_scale": positive("b_scale")})
