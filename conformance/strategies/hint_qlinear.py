"""Hints for com.microsoft's quantized ops (QLinear*, QGemm): positive scales (onnxruntime's requantization needs
them, and a negative scale means nothing), and the operand shapes and per-tensor/per-column parameter shapes
their relations tie together, which generic draws hit too rarely."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import _qlinear_conv_shapes, positive
from conformance.strategies.hints import OpHint, set_input_shape
from conformance.strategies.values import SEEDS, fill_array


def _per_tensor(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


def _scales(*names: str) -> dict[str, object]:
    return {name: positive(name, 0.0625, 1.0) for name in names}


# ---- QLinearConv (NCHW or, with channels_last, NHWC) ----------------------------------------------------------

def _com_qlinear_conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _qlinear_conv_shapes(draw, ctx)
    if draw(st.booleans()):
        ctx.attributes["channels_last"] = int(draw(st.sampled_from([0, 1])))
    if ctx.attributes.get("channels_last") == 1:
        nchw = ctx.shapes["x"]
        set_input_shape(ctx, "x", [nchw[0], *nchw[2:], nchw[1]])


COM_QLINEAR_CONV_HINT = OpHint(shapes=_com_qlinear_conv_shapes, generic_attributes=False,
                               values=_scales("x_scale", "w_scale", "y_scale"))  # type: ignore[arg-type]


# ---- QGemm --------------------------------------------------------------------------------------------------

def _qgemm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    side = max(1, ctx.max_side)
    m, k, n = (draw(st.integers(1, side)) for _ in range(3))
    trans_a, trans_b = draw(st.sampled_from([0, 1])), draw(st.sampled_from([0, 1]))
    for name, value in (("transA", trans_a), ("transB", trans_b)):
        if value or draw(st.booleans()):
            ctx.attributes[name] = value
    if draw(st.booleans()):
        ctx.attributes["alpha"] = float(draw(st.sampled_from([0.5, 1.0, 2.0, -1.5])))
    set_input_shape(ctx, "A", [k, m] if trans_a else [m, k])
    set_input_shape(ctx, "B", [n, k] if trans_b else [k, n])
    ctx.shapes["a_scale"] = ctx.shapes["a_zero_point"] = _per_tensor(draw)
    ctx.shapes["b_scale"] = ctx.shapes["b_zero_point"] = list(draw(st.sampled_from([[], [1], [n]])))
    if "C" not in ctx.omitted:
        ctx.shapes["C"] = list(draw(st.sampled_from([[m, n], [n], [1, n], [m, 1], [1], []])))
    quantized = draw(st.booleans())
    for name in ("y_scale", "y_zero_point"):
        if quantized:
            ctx.omitted.discard(name)
            ctx.shapes[name] = ctx.shapes.get("y_scale") if name == "y_zero_point" else _per_tensor(draw)
        else:
            ctx.omitted.add(name)
            ctx.shapes[name] = None


QGEMM_HINT = OpHint(shapes=_qgemm_shapes, generic_attributes=False,
                    values=_scales("a_scale", "b_scale", "y_scale"))  # type: ignore[arg-type]


# ---- QLinearConcat: (tensor, scale, zero point) triples of Y's type ------------------------------------------

def _qlinear_concat_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rank = draw(st.integers(1, 3))
    base = [draw(st.integers(1, max(1, ctx.max_side))) for _ in range(rank)]
    axis = draw(st.integers(-rank, rank - 1))
    ctx.attributes["axis"] = axis
    shapes: list[list[int]] = []
    for _ in range(draw(st.integers(1, 3))):
        dims = list(base)
        dims[axis % rank] = draw(st.integers(1, max(1, ctx.max_side)))
        shapes += [dims, _per_tensor(draw), _per_tensor(draw)]
    ctx.shapes["Y_scale"], ctx.shapes["Y_zero_point"] = _per_tensor(draw), _per_tensor(draw)
    ctx.shapes["inputs"] = shapes
    ctx.fixed.add("inputs")


def _qlinear_concat_inputs(draw: DrawFn, ctx: DrawContext) -> list[np.ndarray]:
    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == "Y_zero_point"))
    low, high = (-128.0, 127.0) if element == "int8" else (0.0, 255.0)
    arrays = []
    for i, shape in enumerate(ctx.shapes["inputs"]):
        if i % 3 == 1:
            arrays.append(fill_array(draw(SEEDS), "float", shape, min_value=0.0625, max_value=1.0))
        else:
            arrays.append(fill_array(draw(SEEDS), element, shape, min_value=low, max_value=high))
    return arrays


QLINEAR_CONCAT_HINT = OpHint(shapes=_qlinear_concat_shapes, generic_attributes=False,
                             values={"Y_scale": positive("Y_scale", 0.0625, 1.0),
                                     "inputs": _qlinear_concat_inputs})  # type: ignore[dict-item]


# ---- pooling: positive scales ----------------------------------------------------------------------------------

QLINEAR_POOL_HINT = OpHint(values=_scales("x_scale", "y_scale"))  # type: ignore[arg-type]
