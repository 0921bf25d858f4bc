"""Hints for com.microsoft's attention ops: head counts that divide the hidden sizes, masks in the layouts the kernels
accept with values inside the key range, past caches whose lengths agree with the lengths inputs, and bucket and
gate parameters that leave the ops defined."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import BOOLEANS, integers


def _omit(ctx: DrawContext, *names: str) -> None:
    for name in names:
        ctx.omitted.add(name)
        ctx.shapes[name] = None


def _use(ctx: DrawContext, **shapes: list[int]) -> None:
    """Give inputs their shapes, present even where the generic draw left them off."""
    for name, shape in shapes.items():
        ctx.omitted.discard(name)
        ctx.shapes[name] = shape


def _often(draw: DrawFn) -> bool:
    """True three times in four: optional inputs and attributes are mostly there."""
    return bool(draw(integers(0, 3)) > 0)


def _rng(draw: DrawFn) -> np.random.Generator:
    return np.random.default_rng(draw(integers(0, 2**31 - 1)))


def _key_mask(draw: DrawFn, batch: int, seq: int, total: int, layouts: list[str]) -> np.ndarray:
    """A key mask in one of the layouts: ends (batch), ends and starts (2 * batch), 3 * batch + 2 values, raw
    (batch, total) or (batch, seq, total) 0/1 masks, or a (1, 1) mask the kernels drop."""
    layout = draw(st.sampled_from(layouts))
    rng = _rng(draw)
    if layout == "ends":
        return rng.integers(0, total + 1, batch).astype(np.int32)
    if layout == "ends_starts":
        return np.concatenate([rng.integers(0, total + 1, batch), rng.integers(0, total + 1, batch)]).astype(np.int32)
    if layout == "3b2":
        return np.concatenate([rng.integers(0, total + 1, batch), rng.integers(0, total + 1, 2 * batch + 2)]
                              ).astype(np.int32)
    if layout == "one":
        return np.ones((1, 1), np.int32) * int(rng.integers(0, 2))
    shape = (batch, total) if layout == "2d" else (batch, seq, total)
    return (rng.random(shape) < 0.75).astype(np.int32)


def _bias_shape(draw: DrawFn, batch: int, heads: int, seq: int, total: int) -> list[int]:
    return [draw(st.sampled_from([1, batch])), draw(st.sampled_from([1, heads])), seq, total]


# ---- GroupQueryAttention ----------------------------------------------------------------------------------------

GQA_INPUTS_OFF = ("k_scale", "v_scale", "q_norm_weight", "k_norm_weight", "query_seqlens")


def _gqa_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    ctx.type_bindings["T_CACHE"] = ctx.dtype  # an unquantized cache holds the op's own type
    batch, kv_heads, group = draw(integers(1, 2)), draw(integers(1, 2)), draw(integers(1, 2))
    heads = kv_heads * group
    rotary = draw(BOOLEANS)
    head = 16 if rotary else draw(st.sampled_from([8, 16]))
    mode = draw(st.sampled_from(["prompt", "decode", "chunk"]))
    if mode == "prompt":
        seq, past = draw(integers(1, 4)), 0
    elif mode == "decode":
        seq, past = 1, draw(integers(1, 3))
    else:
        batch, seq, past = 1, draw(integers(2, 3)), draw(integers(1, 3))
    total = past + seq
    ctx.attributes.update(num_heads=heads, kv_num_heads=kv_heads)
    if draw(integers(0, 3)) == 0:
        _use(ctx, query=[batch, seq, (heads + 2 * kv_heads) * head])
        _omit(ctx, "key", "value")
    else:
        _use(ctx, query=[batch, seq, heads * head], key=[batch, seq, kv_heads * head],
             value=[batch, seq, kv_heads * head])
    if past:
        _use(ctx, past_key=[batch, kv_heads, past, head], past_value=[batch, kv_heads, past, head])
    else:
        _omit(ctx, "past_key", "past_value")
    _use(ctx, seqlens_k=[batch], total_sequence_length=[])
    ctx.scratch.update(batch=batch, seq=seq, total=total, past=past)
    if rotary:
        ctx.attributes["do_rotary"] = 1
        ctx.attributes["rotary_interleaved"] = draw(integers(0, 1))
        rows = total + draw(integers(0, 3))
        _use(ctx, cos_cache=[rows, 8], sin_cache=[rows, 8])
        ctx.scratch["rotary_rows"] = rows
        if not draw(BOOLEANS):
            _omit(ctx, "position_ids")
    else:
        _omit(ctx, "cos_cache", "sin_cache", "position_ids")
    if draw(BOOLEANS):
        _use(ctx, attention_bias=_bias_shape(draw, batch, heads, seq, total))
    else:
        _omit(ctx, "attention_bias")
    if draw(integers(0, 2)) == 0:
        _use(ctx, head_sink=[heads])
    else:
        _omit(ctx, "head_sink")
    _omit(ctx, *GQA_INPUTS_OFF)
    causal = draw(integers(0, 1))
    ctx.attributes["causal"] = causal
    if causal and draw(BOOLEANS):
        ctx.attributes["local_window_size"] = draw(integers(1, 3))
    if draw(BOOLEANS):
        ctx.attributes["softcap"] = draw(st.sampled_from([1.0, 5.0]))
    if draw(BOOLEANS):
        ctx.attributes["smooth_softmax"] = 1
    if draw(BOOLEANS):
        ctx.attributes["scale"] = draw(st.sampled_from([0.125, 0.5]))
    # onnxruntime's CPU kernel reads a past only when the presents are asked for
    outputs = draw(st.sampled_from([3, 4] if past else [1, 3, 4]))
    if outputs == 4:
        ctx.attributes["qk_output"] = draw(integers(1, 2))
    ctx.scratch["outputs"] = outputs


def _seqlens(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return np.full(ctx.scratch["batch"], ctx.scratch["total"] - 1, dtype=np.int32)


def _total(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return np.array(ctx.scratch["total"], dtype=np.int32)


def _position_ids(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    if "position_ids" in ctx.omitted:
        return None
    s = ctx.scratch
    start = _rng(draw).integers(0, s["rotary_rows"] - s["seq"] + 1, (s["batch"], 1))
    return (start + np.arange(s["seq"])[None, :]).astype(np.int64)


GQA_HINT = OpHint(shapes=_gqa_shapes, generic_attributes=False,
                  values={"seqlens_k": _seqlens, "total_sequence_length": _total, "position_ids": _position_ids},
                  outputs=lambda draw, ctx: int(ctx.scratch["outputs"]))


# ---- ops without a reference kernel: valid nodes for their shape formulas -----------------------------------------
