"""Hints for com.microsoft's quantized mixture of experts, linear-attention, convolution-state, gated delta-net and
sparse-attention ops: packed weights, state layouts, packed requests and block layouts decided in one draw (the shared
draws are in `hint_attention`)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hint_attention import linear_attention_hint, place, rng, uniform, unit_heads, unit_keys
from conformance.strategies.hints import ArrayHint, OpHint, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers

LINEAR_ATTENTION_HINT = linear_attention_hint(microsoft=True)


def _qmoe_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """Integer QMoE: packed uint8 weights whose rows hold hidden (fc1) or inter (fc2) values of `bits` bits,
    scales of the input's type per row (or per block of 16 along a row), optional packed zero points."""
    experts, bits = draw(integers(1, 4)), draw(st.sampled_from([2, 4, 8]))  # 3 bits: a SwiGLU-only profile
    block = draw(st.sampled_from([0, 0, 16]))
    unit = 16 if block else 8 // bits
    hidden, inter = unit * draw(integers(1, 2)), unit * draw(integers(1, 2))
    lead = draw(st.sampled_from([[draw(integers(1, 5))], [draw(integers(1, 2)), draw(integers(1, 3))]]))
    tokens = int(np.prod(lead))
    act = draw(st.sampled_from(["relu", "gelu", "silu", "identity", "swiglu", "swiglu", "swiglu"]))  # CPU: no relu2
    fusion = 1 if act == "swiglu" else 0
    width = 2 * inter if fusion else inter
    ctx.type_bindings["T1"] = "uint8"
    ctx.type_bindings["T2"] = ctx.dtype
    ctx.attributes.update(activation_type=act, k=draw(integers(1, experts)), expert_weight_bits=bits,
                          normalize_routing_weights=draw(integers(0, 1)))
    if block:
        ctx.attributes["block_size"] = block
    if fusion:
        ctx.attributes.update(swiglu_fusion=1, activation_alpha=draw(st.sampled_from([1.0, 1.702])),
                              activation_beta=draw(st.sampled_from([0.0, 1.0])))
        if draw(integers(0, 2)):
            ctx.attributes["swiglu_limit"] = draw(st.sampled_from([0.5, 1.5]))
    ctx.shapes.update(input=[*lead, hidden], router_probs=[tokens, experts],
                      fc1_experts_weights=[experts, width, hidden * bits // 8],
                      fc2_experts_weights=[experts, hidden, inter * bits // 8])
    for name, rows, count in (("fc1", width, hidden), ("fc2", hidden, inter)):
        place(ctx, f"{name}_scales", [experts, rows, count // block] if block else [experts, rows])
        zero = ([experts, rows, -(-count // block * bits // 8)] if block else [experts, -(-rows * bits // 8)])
        place(ctx, f"{name}_zero_points", zero if draw(BOOLEANS) else None)
    place(ctx, "fc1_experts_bias", [experts, width] if draw(BOOLEANS) else None)
    place(ctx, "fc2_experts_bias", [experts, hidden] if draw(BOOLEANS) else None)
    place(ctx, "router_weights", [tokens, experts] if draw(integers(0, 3)) == 0 else None)
    if "router_weights" in ctx.omitted:  # the CPU kernel renormalises then whatever the attribute says (qmoe_r1)
        ctx.attributes["normalize_routing_weights"] = 1
    for name in ("fc3_experts_weights", "fc3_scales", "fc3_experts_bias", "fc3_zero_points", "fc1_global_scale",
                 "fc2_global_scale", "fc1_act_scale", "fc2_act_scale", "fc1_act_block_scale",
                 "fc2_act_block_scale"):
        place(ctx, name, None)


QMOE_HINT = OpHint(shapes=_qmoe_shapes, values={"fc1_scales": uniform("fc1_scales", 0.01, 0.2),
                                                "fc2_scales": uniform("fc2_scales", 0.01, 0.2),
                                                "router_weights": uniform("router_weights", 0.05, 1.0)},
                   generic_attributes=False)


def _ints(name: str, low: int, high: int) -> ArrayHint:
    """Integers in [low, high] of the input's type; None when omitted."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None:
            return None
        param = next(p for p in ctx.version.inputs if p.name == name)
        dtype = numpy_dtype(ctx.element_of(param.type))
        top = min(high, int(np.iinfo(dtype).max))
        return np.asarray(rng(draw).integers(low, top, size=shape, endpoint=True)).astype(dtype)

    return build


def _varlen_conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    lengths = [draw(integers(1, 4)) for _ in range(draw(integers(1, 3)))]
    batch, total = len(lengths), sum(lengths)
    channels, k, dilation = draw(integers(1, 4)), draw(integers(1, 4)), draw(integers(1, 3))
    ctx.scratch["cumulative"] = np.cumsum([0, *lengths]).astype(np.int32)
    ctx.attributes.update(activation=draw(st.sampled_from(["none", "silu", "swish"])), dilation=dilation)
    capacity = draw(st.sampled_from([0, 0, 1, 3]))
    if capacity:
        ctx.attributes["state_update_capacity"] = capacity
    set_input_shape(ctx, "input", [total, channels])
    set_input_shape(ctx, "weight", [channels, 1, k])
    set_input_shape(ctx, "cumulative_sequence_length", [batch + 1])
    set_input_shape(ctx, "initial_state", [batch, channels, (k - 1) * dilation])
    place(ctx, "bias", [channels] if draw(BOOLEANS) else None)
    place(ctx, "capture_count", [batch] if capacity else None)
    place(ctx, "kernel_delta", None)
    place(ctx, "previous_mask", None)


VARLEN_CAUSAL_CONV_HINT = OpHint(
    shapes=_varlen_conv_shapes, generic_attributes=False,
    outputs=lambda draw, ctx: 3 if int(ctx.attributes.get("state_update_capacity", 0)) > 0 else 2,
    values={"cumulative_sequence_length": lambda draw, ctx: ctx.scratch["cumulative"],
            "capture_count": _ints("capture_count", -1, 5)})


def _gdn_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """Token-major heads (H_v a multiple of H_q), requests by cu_seqlens or a uniform split, the gate inputs the
    rule and the gate activation need; keys normalised by the op (qk_l2_norm) or by the values hint."""
    hq = draw(integers(1, 2))
    hv, dqk, dv = hq * draw(integers(1, 2)), draw(integers(1, 4)), draw(integers(1, 3))
    lengths = [draw(integers(1, 3)) for _ in range(draw(integers(1, 3)))]
    batch, tokens = len(lengths), sum(lengths)
    rule = draw(st.sampled_from(["linear", "gated", "delta", "gated_delta"]))
    act = draw(st.sampled_from(["none", "none", "softplus", "sigmoid"])) if "gated" in rule else "none"
    ctx.scratch["head_size_k"] = dqk
    ctx.scratch["cumulative"] = np.cumsum([0, *lengths]).astype(np.int32)
    ctx.attributes.update(update_rule=rule, gate_activation=act, qk_l2_norm=draw(integers(0, 1)))
    if "delta" in rule:
        ctx.attributes["beta_activation"] = draw(st.sampled_from(["none", "sigmoid"]))
    if draw(BOOLEANS):
        ctx.attributes["scale"] = draw(st.sampled_from([0.5, 1.0]))
    packed = draw(integers(0, 3)) == 0
    ragged = draw(BOOLEANS)
    if not ragged:  # a uniform split: every request as long as the first
        tokens = lengths[0] * batch
    if packed:
        ctx.shapes["query"] = [tokens, 2 * hq * dqk + hv * dv]
    else:
        ctx.shapes["query"] = [tokens, hq, dqk]
    place(ctx, "key", None if packed else [tokens, hq, dqk])
    place(ctx, "value", None if packed else [tokens, hv, dv])
    place(ctx, "cu_seqlens", [batch + 1] if ragged else None)
    per_key = draw(BOOLEANS)
    place(ctx, "decay", ([tokens, hv, dqk] if per_key else [tokens, hv]) if "gated" in rule else None)
    place(ctx, "beta", [tokens, hv] if "delta" in rule else None)
    state = packed or not ragged or draw(BOOLEANS)
    place(ctx, "initial_state", [batch, hv, dv, dqk] if state else None)
    place(ctx, "a_log", [hv] if act != "none" else None)
    place(ctx, "dt_bias", ([hv, dqk] if per_key else [hv]) if act != "none" else None)
    for name in ("capture_count", "state_update_active"):
        place(ctx, name, None)


def _gdn_cumulative(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    return None if ctx.shapes.get("cu_seqlens") is None else np.asarray(ctx.scratch["cumulative"])


def _gdn_query(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Query, or packed QKV whose key part is normalised per head for the delta rules."""
    shape = ctx.shapes["query"]
    q = rng(draw).uniform(-2.0, 2.0, size=shape)
    if ctx.shapes.get("key") is None and ctx.attributes.get("update_rule") in ("delta", "gated_delta"):
        dqk, state = int(ctx.scratch["head_size_k"]), ctx.shapes["initial_state"]
        hq = (shape[-1] - state[1] * state[2]) // (2 * dqk)
        q[:, hq * dqk:2 * hq * dqk] = unit_heads(q[:, hq * dqk:2 * hq * dqk], dqk)
    return np.asarray(q).astype(numpy_dtype(ctx.dtype))


GATED_DELTA_NET_HINT = OpHint(
    shapes=_gdn_shapes, generic_attributes=False, outputs=lambda draw, ctx: int(draw(integers(1, 2))),
    values={"query": _gdn_query, "key": unit_keys(always=True), "cu_seqlens": _gdn_cumulative,
            "decay": uniform("decay", -1.0, 0.0), "beta": uniform("beta", 0.0, 1.0),
            "a_log": uniform("a_log", -1.0, 0.5), "dt_bias": uniform("dt_bias", -1.0, 1.0)})


def _sparse_attention_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """Head size 16, block 16, a cache of 2 to 4 blocks, per-entry totals no shorter than the new tokens, random
    block layouts (CSR) that keep each diagonal block so every query sees itself."""
    batch, kvh, group, steps = draw(integers(1, 2)), draw(integers(1, 2)), draw(integers(1, 2)), \
        draw(integers(1, 4))
    heads, hs, block, blocks = kvh * group, 16, 16, draw(integers(2, 4))
    m = blocks * block
    layouts = draw(st.sampled_from([n for n in (1, 2) if heads % n == 0]))
    layout_rng = rng(draw)
    masks = np.tril(layout_rng.integers(0, 2, (layouts, blocks, blocks))) | np.eye(blocks, dtype=np.int64)[None]
    rows = np.concatenate([np.zeros((layouts, 1), np.int64), np.cumsum(masks.sum(axis=2), axis=1)], axis=1)
    nnz = int(rows[:, -1].max())
    cols = np.full((layouts, nnz), -1, np.int64)
    for n in range(layouts):
        found = np.nonzero(masks[n])[1]
        cols[n, :found.shape[0]] = found
    lengths = layout_rng.integers(steps, m, size=batch, endpoint=True)
    ctx.scratch.update(rows=rows.astype(np.int32), cols=cols.astype(np.int32), lengths=lengths.astype(np.int32))
    ctx.type_bindings["M"] = "int32"
    ctx.attributes.update(num_heads=heads, kv_num_heads=kvh, sparse_block_size=block)
    rotary = draw(BOOLEANS)
    if rotary:
        ctx.attributes.update(do_rotary=1, rotary_interleaved=draw(integers(0, 1)))
    if draw(BOOLEANS):
        ctx.attributes["scale"] = draw(st.sampled_from([0.1, 0.5]))
    packed = draw(BOOLEANS)
    width = (heads + 2 * kvh) * hs if packed else heads * hs
    set_input_shape(ctx, "query", [batch, steps, width])
    place(ctx, "key", None if packed else [batch, steps, kvh * hs])
    place(ctx, "value", None if packed else [batch, steps, kvh * hs])
    set_input_shape(ctx, "past_key", [batch, kvh, m, hs])
    set_input_shape(ctx, "past_value", [batch, kvh, m, hs])
    set_input_shape(ctx, "block_row_indices", list(rows.shape))
    set_input_shape(ctx, "block_col_indices", list(cols.shape))
    ctx.shapes["total_sequence_length"] = []
    set_input_shape(ctx, "key_total_sequence_lengths", [batch])
    place(ctx, "cos_cache", [m, hs // 2] if rotary else None)
    place(ctx, "sin_cache", [m, hs // 2] if rotary else None)


def _scratch(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        return np.asarray(ctx.scratch[name])

    return build


SPARSE_ATTENTION_HINT = OpHint(
    shapes=_sparse_attention_shapes, generic_attributes=False,
    values={"block_row_indices": _scratch("rows"), "block_col_indices": _scratch("cols"),
            "key_total_sequence_lengths": _scratch("lengths"),
            "total_sequence_length": lambda draw, ctx: np.array(ctx.scratch["lengths"].max(), np.int32),
            "cos_cache": uniform("cos_cache", -1.0, 1.0), "sin_cache": uniform("sin_cache", -1.0, 1.0)})
