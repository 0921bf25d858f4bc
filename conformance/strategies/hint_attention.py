"""Hints for the attention family: heads, head sizes, caches and position ids must agree with each other."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint


def _rotary_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    batch, seq, heads = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    head = 2 * draw(st.integers(1, 4))
    rot = draw(st.sampled_from([0, *range(2, head + 1, 2)]))
    three_d = draw(st.booleans())
    ctx.shapes["X"] = [batch, seq, heads * head] if three_d else [batch, heads, seq, head]
    if three_d or draw(st.booleans()):
        ctx.attributes["num_heads"] = heads
    if rot:
        ctx.attributes["rotary_embedding_dim"] = rot
    ctx.attributes["interleaved"] = draw(st.integers(0, 1))
    half = (rot or head) // 2
    with_positions = "position_ids" not in ctx.omitted and draw(st.booleans())
    if with_positions:
        positions = draw(st.integers(1, 6))
        ctx.scratch["positions"] = positions
        cache = [positions, half]
        ctx.shapes["position_ids"] = [batch, seq]
    else:
        ctx.omitted.add("position_ids")
        ctx.shapes["position_ids"] = None
        cache = [batch, seq, half]
    ctx.shapes["cos_cache"] = cache
    ctx.shapes["sin_cache"] = list(cache)


def _position_ids(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    shape = ctx.shapes.get("position_ids")
    if shape is None:
        return None
    seed = draw(st.integers(0, 2**31 - 1))
    return np.random.default_rng(seed).integers(0, ctx.scratch["positions"], size=shape).astype(np.int64)


ROTARY_EMBEDDING_HINT = OpHint(shapes=_rotary_shapes, values={"position_ids": _position_ids},
                               generic_attributes=False)
