"""Hints for the attention family that the YAML cannot state, and the draws they share: a random generator from one
drawn seed, an optional input placed or left off, values in a range, keys of unit length per head (the delta rules),
the linear-attention layout of both domains."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

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
