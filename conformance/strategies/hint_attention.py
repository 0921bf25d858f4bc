"""Hints for the attention family: heads, head sizes, caches and position ids must agree with each other."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import is_float_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import ArrayHint, OpHint
from conformance.strategies.memo import BOOLEANS, integers


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
    for name, size in (("past_key", d), ("past_value", dv)):
        if past:
            ctx.shapes[name] = [batch, hkv, past, size]
        else:
            ctx.omitted.add(name)
            ctx.shapes[name] = None
    total = past + skv
    if "attn_mask" not in ctx.omitted and draw(BOOLEANS):
        last = total - draw(integers(0, total - 1)) if since >= 24 else total
        ctx.shapes["attn_mask"] = draw(st.sampled_from([[sq, last], [batch, 1, sq, last], [1, hq, sq, last],
                                                        [1, sq, last]]))
    else:
        ctx.omitted.add("attn_mask")
        ctx.shapes["attn_mask"] = None
    if since >= 24:
        if not past and "nonpad_kv_seqlen" not in ctx.omitted and draw(BOOLEANS):
            ctx.shapes["nonpad_kv_seqlen"] = [batch]
            ctx.scratch["total"] = total
        else:
            ctx.omitted.add("nonpad_kv_seqlen")
            ctx.shapes["nonpad_kv_seqlen"] = None
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
    rng = np.random.default_rng(draw(integers(0, 2**31 - 1)))
    dtype = numpy_dtype(ctx.element_of("U"))
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < 0.7)
    if is_float_dtype(dtype):  # an additive bias, -inf disallowing a key
        return np.asarray(rng.choice([0.0, -1.0, 0.5, -np.inf], size=shape, p=[0.55, 0.2, 0.15, 0.1])).astype(dtype)
    return np.asarray(rng.choice([0, 1] if dtype.kind == "u" else [0, -1, 1], size=shape)).astype(dtype)


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


def _linear_attention_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    batch, steps, hkv, group = (draw(integers(1, 3)) for _ in range(4))
    hq = hkv * group
    dk, dv = draw(integers(1, 4)), draw(integers(1, 4))
    rule = draw(st.sampled_from(["linear", "gated", "delta", "gated_delta"]))
    ctx.attributes.update(q_num_heads=hq, kv_num_heads=hkv, update_rule=rule)
    if draw(BOOLEANS):
        ctx.attributes["scale"] = draw(st.sampled_from([0.0, 0.5]))
    if draw(BOOLEANS):
        ctx.attributes["chunk_size"] = draw(integers(1, 4))
    ctx.shapes.update(query=[batch, steps, hq * dk], key=[batch, steps, hkv * dk], value=[batch, steps, hkv * dv])
    optional = {
        "past_state": [batch, hkv, dk, dv] if draw(BOOLEANS) else None,
        "decay": draw(st.sampled_from([[batch, steps, hkv * dk], [batch, steps, hkv]]))
        if rule in ("gated", "gated_delta") else None,
        "beta": draw(st.sampled_from([[batch, steps, hkv], [batch, steps, 1]]))
        if rule in ("delta", "gated_delta") else None,
    }
    for name, shape in optional.items():
        ctx.shapes[name] = shape
        if shape is None:
            ctx.omitted.add(name)


def _gate(name: str, low: float, high: float) -> ArrayHint:
    """Values in [low, high] for an optional gate input (decay in log space, beta a sigmoid's output)."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None:
            return None
        rng = np.random.default_rng(draw(integers(0, 2**31 - 1)))
        return np.asarray(rng.uniform(low, high, size=shape)).astype(numpy_dtype(ctx.dtype))

    return build


def _keys(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Keys; L2-normalized per head for the delta rules, as the op asks (else the recurrence can grow without
    bound and only rounding is compared)."""
    shape = ctx.shapes["key"]
    rng = np.random.default_rng(draw(integers(0, 2**31 - 1)))
    keys = rng.uniform(-2.0, 2.0, size=shape)
    if ctx.attributes.get("update_rule") in ("delta", "gated_delta"):
        heads = int(ctx.attributes["kv_num_heads"])
        per_head = keys.reshape(shape[0], shape[1], heads, -1)
        keys = (per_head / np.maximum(np.linalg.norm(per_head, axis=-1, keepdims=True), 1e-3)).reshape(shape)
    return np.asarray(keys).astype(numpy_dtype(ctx.dtype))


LINEAR_ATTENTION_HINT = OpHint(shapes=_linear_attention_shapes,
                               values={"key": _keys, "decay": _gate("decay", -1.0, 0.0),
                                       "beta": _gate("beta", 0.0, 1.0)},
                               generic_attributes=False)
