"""Hints for the mixture-of-experts, linear-attention, convolution-state and hyper-connection ops of com.microsoft:
expert counts, hidden and inter sizes, head counts and state shapes must agree across inputs and attributes."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint


def _place(ctx: DrawContext, name: str, shape: list[int] | None) -> None:
    ctx.shapes[name] = shape
    if shape is None:
        ctx.omitted.add(name)


def _moe_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    experts, hidden, inter = draw(st.integers(1, 4)), draw(st.integers(1, 5)), draw(st.integers(1, 4))
    lead = draw(st.sampled_from([[draw(st.integers(1, 5))], [draw(st.integers(1, 2)), draw(st.integers(1, 3))]]))
    tokens = 1
    for d in lead:
        tokens *= d
    act = draw(st.sampled_from(["relu", "gelu", "silu", "identity", "swiglu", "relu2", "geglu"]))
    fusion = draw(st.sampled_from([1, 2])) if act in ("swiglu", "geglu") else 0
    fc3 = act != "geglu" and draw(st.integers(0, 3)) == 0
    if act == "swiglu" and fc3:
        fusion = 0
    width = 2 * inter if fusion else inter
    ctx.attributes.update(activation_type=act, k=draw(st.integers(1, experts)),
                          normalize_routing_weights=draw(st.integers(0, 1)))
    if fusion:
        ctx.attributes["swiglu_fusion"] = fusion
    if act == "swiglu":
        ctx.attributes["activation_alpha"] = draw(st.sampled_from([1.0, 1.702]))
        ctx.attributes["activation_beta"] = draw(st.sampled_from([0.0, 1.0]))
        if draw(st.booleans()):
            ctx.attributes["swiglu_limit"] = draw(st.sampled_from([0.5, 1.5]))
            ctx.attributes["swiglu_limit_after_activation"] = draw(st.integers(0, 1))
    ctx.shapes.update(input=lead + [hidden], router_probs=[tokens, experts],
                      fc1_experts_weights=[experts, width, hidden], fc2_experts_weights=[experts, hidden, inter])
    _place(ctx, "fc1_experts_bias", [experts, width] if draw(st.booleans()) else None)
    _place(ctx, "fc2_experts_bias", [experts, hidden] if draw(st.booleans()) else None)
    _place(ctx, "fc3_experts_weights", [experts, inter, hidden] if fc3 else None)
    _place(ctx, "fc3_experts_bias", [experts, inter] if fc3 and draw(st.booleans()) else None)


MOE_HINT = OpHint(shapes=_moe_shapes, generic_attributes=False)
