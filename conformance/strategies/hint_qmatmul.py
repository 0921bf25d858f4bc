"""The hint of com.microsoft QAttention (an attention cache layout: heads, past steps and the mask_index layouts
decided together); the other quantized matmuls draw from their YAML."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import positive
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array


def _one_element(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


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
