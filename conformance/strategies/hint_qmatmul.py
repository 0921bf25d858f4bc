"""Hints of the com.microsoft quantized matmuls (MatMulIntegerToFloat, DynamicQuantizeMatMul, MatMulNBits,
GatherBlockQuantized, QAttention, DynamicQuantizeLSTM): shapes that tie the weights, scales, zero points and bias
to the data, which the schemas state as constraints but the generic builder cannot solve."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import positive
from conformance.strategies.hint_recurrent import RECURRENT_HINT
from conformance.strategies.hints import ArrayHint, OpHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array


def _one_element(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


# ---- MatMulNBits ------------------------------------------------------------------------------------------

def _bytes(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        return fill_array(draw(SEEDS), "uint8", shape, min_value=0, max_value=255)

    return build


# ---- QAttention -------------------------------------------------------------------------------------------

def _q_attention_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """batch, sequence, input width, heads and head size; scales and zero points per tensor or per column; one of
    the four mask_index layouts; a past of 0..3 steps (never with past_present_share_buffer: qattention_c8)."""
    b, s, d = draw(integers(1, 2)), draw(integers(1, 3)), draw(integers(1, 4))
    heads, head = draw(integers(1, 2)), draw(integers(1, 3))
    w3 = 3 * heads * head
    ctx.attributes["num_heads"] = heads
    ctx.shapes.update(input=[b, s, d], weight=[d, w3], bias=[w3], input_scale=_one_element(draw),
                      weight_scale=draw(st.sampled_from([[], [1], [w3]])))
    past = draw(integers(1, 3)) if "past" not in ctx.omitted and draw(BOOLEANS) else 0
    if past:
        ctx.shapes["past"] = [2, b, heads, past, head]
        ctx.attributes["past_present_share_buffer"] = 0
    else:
        ctx.omitted.add("past")
        ctx.shapes["past"] = None
    total = s + past
    if "mask_index" not in ctx.omitted:
        ctx.shapes["mask_index"] = draw(st.sampled_from([[b], [2 * b], [b, total], [b, s, total]]))
    if "input_zero_point" not in ctx.omitted:
        ctx.shapes["input_zero_point"] = _one_element(draw)
    if "weight_zero_point" not in ctx.omitted:
        ctx.shapes["weight_zero_point"] = draw(st.sampled_from([[], [1], [w3]]))
    ctx.type_bindings["T3"] = draw(st.sampled_from(["float", "float16"]))


def _mask_index(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    """End (and start) positions in [0, P + S] for the 1-D layouts, 0/1 for the others."""
    shape = ctx.shapes.get("mask_index")
    if shape is None or "mask_index" in ctx.omitted:
        return None
    s = ctx.shapes["input"][1]
    total = s + (ctx.shapes["past"][3] if ctx.shapes.get("past") else 0)
    top = total if len(shape) == 1 else 1
    return fill_array(draw(SEEDS), "int32", shape, min_value=0, max_value=top)


def _q_attention_outputs(draw: DrawFn, ctx: DrawContext) -> int:
    """present is asked for whenever past is given (onnxruntime's CPU kernel refuses a past without it)."""
    return 2 if ctx.shapes.get("past") else int(draw(integers(1, 2)))


Q_ATTENTION_HINT = OpHint(shapes=_q_attention_shapes, outputs=_q_attention_outputs,
                          values={"input_scale": positive("input_scale", 0.25, 0.5),
                                  "weight_scale": positive("weight_scale", 0.25, 0.5), "mask_index": _mask_index})


# ---- DynamicQuantizeLSTM ----------------------------------------------------------------------------------

def _dynamic_quantize_lstm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """LSTM's draw (directions, optional inputs, activations, clip, input_forget) with the weights transposed
    ([num_directions, input_size, 4*hidden_size]), int8 or uint8, and scales and zero points per direction or per
    column (zero points per column one value, 0 for int8: dynamicquantizelstm_c8, _c11)."""
    _recurrent_shapes_as(draw, ctx, "LSTM")
    if draw(BOOLEANS):  # one batch entry in half the draws: onnxruntime then agrees (reading r1 needs two)
        ctx.shapes["X"][1] = 1
        for name in ("sequence_lens", "initial_h", "initial_c"):
            if ctx.shapes.get(name) is not None:
                ctx.shapes[name][0 if name == "sequence_lens" else 1] = 1
    directions, four_hidden, size = ctx.shapes["W"]
    hidden = four_hidden // 4
    ctx.shapes["W"] = [directions, size, four_hidden]
    ctx.shapes["R"] = [directions, hidden, four_hidden]
    ctx.type_bindings["T2"] = draw(st.sampled_from(["int8", "uint8"]))
    for weight in ("W", "R"):
        per_column = draw(BOOLEANS)
        ctx.scratch[f"{weight}_per_column"] = per_column
        shape = [directions, four_hidden] if per_column else [directions]
        ctx.shapes[f"{weight}_scale"] = list(shape)
        ctx.shapes[f"{weight}_zero_point"] = list(shape)


def _recurrent_shapes_as(draw: DrawFn, ctx: DrawContext, op: str) -> None:
    """hint_recurrent's draw for `op`'s inputs and attributes, on a node of another name."""
    shapes = RECURRENT_HINT.shapes
    assert shapes is not None
    real = ctx.version
    ctx.version = replace(real, name=op)
    try:
        shapes(draw, ctx)
    finally:
        ctx.version = real


def _lstm_zero_point(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None:
            return None
        element = ctx.type_bindings["T2"]
        signed = element == "int8"
        if ctx.scratch[f"{name[0]}_per_column"]:  # one value for every column: 0 for int8
            value = 0 if signed else draw(integers(0, 255))
            return np.full(shape, value, np.int8 if signed else np.uint8)
        return fill_array(draw(SEEDS), element, shape, min_value=-8 if signed else 120, max_value=8 if signed else 136)

    return build


def _lstm_weight(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        signed = ctx.type_bindings["T2"] == "int8"
        return fill_array(draw(SEEDS), ctx.type_bindings["T2"], ctx.shapes[name], min_value=-128 if signed else 0,
                          max_value=127 if signed else 255)

    return build


def _lstm_scale(name: str) -> ArrayHint:
    """Quarter steps in [0.25, 2] over 128: a weight of 127 then weighs up to about 2."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        return np.asarray(fill_array(draw(SEEDS), "float", ctx.shapes[name], min_value=0.25, max_value=2.0)
                          / np.float32(128))

    return build


def _lstm_float(name: str, bound: float) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        return fill_array(draw(SEEDS), "float", shape, min_value=-bound, max_value=bound)

    return build


DYNAMIC_QUANTIZE_LSTM_HINT = OpHint(
    shapes=_dynamic_quantize_lstm_shapes, generic_attributes=False,
    values={"X": _lstm_float("X", 2.0), "W": _lstm_weight("W"), "R": _lstm_weight("R"),
            **{name: _lstm_float(name, 1.0) for name in ("B", "initial_h", "initial_c", "P")},
            "W_scale": _lstm_scale("W_scale"), "R_scale": _lstm_scale("R_scale"),
            "W_zero_point": _lstm_zero_point("W_zero_point"), "R_zero_point": _lstm_zero_point("R_zero_point"),
            "sequence_lens": RECURRENT_HINT.values["sequence_lens"]},
    outputs=RECURRENT_HINT.outputs)
