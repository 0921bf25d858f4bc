"""Hints for the attention family that the YAML cannot state, and the draws they share: a random generator from one
drawn seed, an optional input placed or left off, values in a range, keys of unit length per head (the delta rules),
the linear-attention layout of both domains."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import is_float_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import ArrayHint, OpHint
from conformance.strategies.memo import BOOLEANS, integers

RULES = ("linear", "gated", "delta", "gated_delta")


def rng(draw: DrawFn) -> np.random.Generator:
    return np.random.default_rng(draw(integers(0, 2**31 - 1)))


def place(ctx: DrawContext, name: str, shape: list[int] | None) -> None:
    """An optional input given `shape`, or left off (None), whatever the generic draw decided before."""
    ctx.shapes[name] = shape
    if shape is None:
        ctx.omitted.add(name)
    else:
        ctx.omitted.discard(name)


def uniform(name: str, low: float, high: float) -> ArrayHint:
    """Values in [low, high] for an input (decay in log space, beta a sigmoid's output); None when omitted."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None:
            return None
        param = next(p for p in ctx.version.inputs if p.name == name)
        return np.asarray(rng(draw).uniform(low, high, size=shape)).astype(numpy_dtype(ctx.element_of(param.type)))

    return build


def unit_heads(values: np.ndarray, head: int) -> np.ndarray:
    """`values` L2-normalized per head (groups of `head` along the last axis)."""
    per_head = values.reshape(*values.shape[:-1], -1, head)
    unit = per_head / np.maximum(np.linalg.norm(per_head, axis=-1, keepdims=True), 1e-3)
    return np.asarray(unit).reshape(values.shape)


def unit_keys(*, always: bool = False) -> ArrayHint:
    """Keys (head size `scratch['head_size_k']`), of unit length per head for the delta rules as the ops ask (else
    the state grows without bound and only rounding is compared), or `always`."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get("key")
        if shape is None:
            return None
        keys = rng(draw).uniform(-2.0, 2.0, size=shape)
        if always or ctx.attributes.get("update_rule") in ("delta", "gated_delta"):
            keys = unit_heads(keys, int(ctx.scratch["head_size_k"]))
        return np.asarray(keys).astype(numpy_dtype(ctx.dtype))

    return build


# ---- ai.onnx Attention ----------------------------------------------------------------------------------------------

def _attention_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    since = ctx.version.since
    batch, hkv, group = draw(integers(1, 2)), draw(integers(1, 2)), draw(integers(1, 2))
    hq = hkv * group
    sq, skv, d, dv = (draw(integers(1, 4)) for _ in range(4))
    three_d = draw(BOOLEANS)
    if three_d:
        ctx.shapes.update(Q=[batch, sq, hq * d], K=[batch, skv, hkv * d], V=[batch, skv, hkv * dv])
    else:
        ctx.shapes.update(Q=[batch, hq, sq, d], K=[batch, hkv, skv, d], V=[batch, hkv, skv, dv])
    if three_d:  # onnx's shape inference rejects the head counts with 4-D inputs (attention_c10)
        ctx.attributes.update(q_num_heads=hq, kv_num_heads=hkv)
    past = draw(integers(1, 3)) if "past_key" not in ctx.omitted and draw(BOOLEANS) else 0
    place(ctx, "past_key", [batch, hkv, past, d] if past else None)
    place(ctx, "past_value", [batch, hkv, past, dv] if past else None)
    total = past + skv
    mask = "attn_mask" not in ctx.omitted and draw(BOOLEANS)
    last = total - draw(integers(0, total - 1)) if mask and since >= 24 else total
    place(ctx, "attn_mask", draw(st.sampled_from([[sq, last], [batch, 1, sq, last], [1, hq, sq, last],
                                                   [1, sq, last]])) if mask else None)
    if since >= 24:
        nonpad = not past and "nonpad_kv_seqlen" not in ctx.omitted and draw(BOOLEANS)
        place(ctx, "nonpad_kv_seqlen", [batch] if nonpad else None)
        ctx.scratch["total"] = total
    ctx.attributes["is_causal"] = draw(integers(0, 1))
    ctx.attributes["qk_matmul_output_mode"] = draw(integers(0, 3))
    if draw(BOOLEANS):
        ctx.attributes["scale"] = draw(st.sampled_from([0.25, 1.0, 2.0]))
    if draw(BOOLEANS):
        ctx.attributes["softcap"] = draw(st.sampled_from([0.5, 3.0]))
    if draw(BOOLEANS):
        ctx.attributes["softmax_precision"] = 11
    if since >= 25:
        for side in ("left_window_size", "right_window_size"):
            if draw(BOOLEANS):
                ctx.attributes[side] = draw(integers(-1, 2))


def _mask(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    shape = ctx.shapes.get("attn_mask")
    if shape is None:
        return None
    values, dtype = rng(draw), numpy_dtype(ctx.element_of("U"))
    if dtype == np.bool_:
        return np.asarray(values.random(shape) < 0.7)
    if is_float_dtype(dtype):  # an additive bias, -inf disallowing a key
        return np.asarray(values.choice([0.0, -1.0, 0.5, -np.inf], size=shape, p=[0.55, 0.2, 0.15, 0.1])
                          ).astype(dtype)
    return np.asarray(values.choice([0, 1] if dtype.kind == "u" else [0, -1, 1], size=shape)).astype(dtype)


def _nonpad(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    shape = ctx.shapes.get("nonpad_kv_seqlen")
    if shape is None:
        return None
    total = int(ctx.scratch["total"])
    return np.array([draw(integers(0, total)) for _ in range(shape[0])], dtype=np.int64)


def _attention_outputs(draw: DrawFn, ctx: DrawContext) -> int:
    """Y, and both present caches whenever a past cache comes in (the op ties them together, and the two
    presents go together); the QK output sometimes."""
    if ctx.shapes.get("nonpad_kv_seqlen") is not None:
        return 1  # an external cache (nonpad_kv_seqlen) excludes the present outputs, and so the QK output
    low = 3 if ctx.shapes.get("past_key") is not None else 1
    return int(draw(st.sampled_from([n for n in (1, 3, 4) if n >= low])))


ATTENTION_HINT = OpHint(shapes=_attention_shapes, values={"attn_mask": _mask, "nonpad_kv_seqlen": _nonpad},
                        generic_attributes=False, outputs=_attention_outputs)


# ---- LinearAttention (ai.onnx and com.microsoft) --------------------------------------------------------------------

def linear_attention_hint(*, microsoft: bool) -> OpHint:
    """Query heads a multiple of the key/value heads (com.microsoft: or the inverse), an update rule and the gates
    it reads (decay in log space, beta in [0, 1]), a past state (com.microsoft: behind a state window of 1 or 3
    steps, or none), chunk_size (ai.onnx)."""
    top = (2, 4, 2, 3, 4, 3) if microsoft else (3, 3, 3, 3, 4, 4)

    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        batch, steps, small, group, dk, dv = (draw(integers(1, t)) for t in top)
        hq, hkv = (small, small * group) if microsoft and draw(BOOLEANS) else (small * group, small)
        rule = draw(st.sampled_from(RULES))
        window = draw(st.sampled_from([0, 0, 1, 3])) if microsoft else 0
        ctx.scratch["head_size_k"] = dk
        ctx.attributes.update(q_num_heads=hq, kv_num_heads=hkv, update_rule=rule)
        if window:
            ctx.attributes["state_window"] = window
        if draw(BOOLEANS):
            ctx.attributes["scale"] = draw(st.sampled_from([0.0, 0.5]))
        if not microsoft and draw(BOOLEANS):
            ctx.attributes["chunk_size"] = draw(integers(1, 4))
        ctx.shapes.update(query=[batch, steps, hq * dk], key=[batch, steps, hkv * dk],
                          value=[batch, steps, hkv * dv])
        place(ctx, "past_state", ([window] if window else []) + [batch, hkv, dk, dv] if draw(BOOLEANS) else None)
        place(ctx, "decay", draw(st.sampled_from([[batch, steps, hkv * dk], [batch, steps, hkv]]))
              if "gated" in rule else None)
        place(ctx, "beta", draw(st.sampled_from([[batch, steps, hkv], [batch, steps, 1]]))
              if "delta" in rule else None)

    return OpHint(shapes=shapes, generic_attributes=False,
                  values={"key": unit_keys(), "decay": uniform("decay", -1.0, 0.0), "beta": uniform("beta", 0.0, 1.0)})


LINEAR_ATTENTION_HINT = linear_attention_hint(microsoft=False)
