"""Hints for onnxruntime's fused normalization and rotary ops (com.microsoft): hidden sizes, head sizes, cache widths,
groups and section sizes that agree with each other, and ids that index their tables."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import ArrayHint, OpHint, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers


def _omit(ctx: DrawContext, name: str) -> None:
    ctx.omitted.add(name)
    ctx.shapes[name] = None


def _maybe(draw: DrawFn, ctx: DrawContext, name: str) -> bool:
    """Whether optional input `name` is given this draw (never when the builder already left it off)."""
    given = name not in ctx.omitted and bool(draw(BOOLEANS))
    if not given:
        _omit(ctx, name)
    return given


def _ids(name: str, rows: str, low: str | None = None) -> ArrayHint:
    """Values for the int input `name`: each a row index in [0, scratch[rows]) (or [scratch[low], ...))."""
    def values(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None:
            return None
        param = next(p for p in ctx.version.inputs if p.name == name)
        dtype = np.int32 if "int32" in ctx.type_of(param.type) else np.int64
        rng = np.random.default_rng(draw(integers(0, 2**31 - 1)))
        lo = int(ctx.scratch[low]) if low else 0
        return np.asarray(rng.integers(lo, int(ctx.scratch[rows]), size=shape), dtype=dtype)
    return values


# ---- RotaryEmbedding, MRotaryEmbedding --------------------------------------------------------------------------


def _rope_layout(draw: DrawFn, ctx: DrawContext, *, multimodal: bool) -> tuple[int, int, int]:
    """Input, caches and head attributes; returns (batch, sequence, rot / 2) and leaves max_position in scratch."""
    batch, seq, heads = draw(integers(1, 2)), draw(integers(1, 4)), draw(integers(1, 3))
    head = 2 * draw(integers(1, 4))
    rot = draw(st.sampled_from([0, *range(2, head + 1, 2)]))
    three_d = draw(BOOLEANS)
    set_input_shape(ctx, "input", [batch, seq, heads * head] if three_d else [batch, heads, seq, head])
    if rot:
        ctx.attributes["rotary_embedding_dim"] = rot
    if rot or (multimodal and three_d) or draw(BOOLEANS):
        ctx.attributes["num_heads"] = heads
    for name in ("interleaved", "is_packed_batching"):
        if draw(BOOLEANS):
            ctx.attributes[name] = draw(integers(0, 1))
    if draw(BOOLEANS):
        ctx.attributes["scale"] = draw(st.sampled_from([0.5, 1.0, 2.0]))
    half = (rot or head) // 2
    rows = seq + draw(integers(0, 4))
    ctx.scratch["rows"] = rows
    set_input_shape(ctx, "cos_cache", [rows, half])
    set_input_shape(ctx, "sin_cache", [rows, half])
    return batch, seq, half


def _rotary_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    batch, seq, _ = _rope_layout(draw, ctx, multimodal=False)
    base = draw(BOOLEANS)
    set_input_shape(ctx, "position_ids", draw(st.sampled_from([[1], []])) if base else [batch, seq])
    ctx.scratch["base_top"] = int(ctx.scratch["rows"]) - seq + 1  # base + seq - 1 must index a row


def _rotary_positions(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    shape = ctx.shapes["position_ids"]
    rng = np.random.default_rng(draw(integers(0, 2**31 - 1)))
    top = int(ctx.scratch["base_top"] if int(np.prod(shape)) == 1 and len(shape) <= 1 else ctx.scratch["rows"])
    return np.asarray(rng.integers(0, top, size=shape), dtype=np.int64)


def _m_rotary_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    batch, seq, half = _rope_layout(draw, ctx, multimodal=True)
    first = draw(integers(0, half))
    second = draw(integers(0, half - first))
    ctx.attributes["mrope_section"] = [first, second, half - first - second]
    if draw(BOOLEANS):
        ctx.attributes["mrope_layout"] = draw(integers(0, 1))
    set_input_shape(ctx, "position_ids", [3, batch, seq])


ROTARY_HINT = OpHint(shapes=_rotary_shapes, values={"position_ids": _rotary_positions}, generic_attributes=False)
M_ROTARY_HINT = OpHint(shapes=_m_rotary_shapes, values={"position_ids": _ids("position_ids", "rows")},
                       generic_attributes=False)


# ---- SkipLayerNormalization, SkipSimplifiedLayerNormalization -------------------------------------------------------


def _skip_norm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    hidden = draw(integers(1, 8))
    lead = [draw(integers(1, 3)) for _ in range(draw(integers(1, 2)))]
    x = [*lead, hidden]
    set_input_shape(ctx, "input", x)
    set_input_shape(ctx, "skip", draw(st.sampled_from([x, x[1:], [1, *x[1:]]])) if len(x) == 3 else x)
    set_input_shape(ctx, "gamma", [hidden])
    for name in ("beta", "bias"):
        if any(p.name == name for p in ctx.version.inputs) and _maybe(draw, ctx, name):
            set_input_shape(ctx, name, [hidden])


SKIP_NORM_HINT = OpHint(shapes=_skip_norm_shapes)


# ---- EmbedLayerNormalization ----------------------------------------------------------------------------------------


def _embed_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    batch, seq, hidden = draw(integers(1, 3)), draw(integers(1, 4)), draw(integers(1, 6))
    vocab, segments = draw(integers(1, 6)), draw(integers(1, 3))
    positions = seq + draw(integers(0, 3))
    ctx.scratch.update(vocab=vocab, segments=segments, positions=positions)
    set_input_shape(ctx, "input_ids", [batch, seq])
    set_input_shape(ctx, "word_embedding", [vocab, hidden])
    set_input_shape(ctx, "position_embedding", [positions, hidden])
    set_input_shape(ctx, "gamma", [hidden])
    set_input_shape(ctx, "beta", [hidden])
    if "segment_ids" not in ctx.omitted and "segment_embedding" not in ctx.omitted and draw(BOOLEANS):
        set_input_shape(ctx, "segment_ids", [batch, seq])
        set_input_shape(ctx, "segment_embedding", [segments, hidden])
    else:
        _omit(ctx, "segment_ids")
        _omit(ctx, "segment_embedding")
    if _maybe(draw, ctx, "mask"):
        set_input_shape(ctx, "mask", [batch, seq])
    if _maybe(draw, ctx, "position_ids"):
        set_input_shape(ctx, "position_ids", [draw(st.sampled_from([1, batch])), seq])
    ctx.attributes["mask_index_type"] = draw(integers(0, 1))


def _embed_outputs(draw: DrawFn, ctx: DrawContext) -> int:
    """onnxruntime's shape inference types mask_index under mask_index_type 1: such a node asks for it."""
    return int(draw(integers(2 if ctx.attributes.get("mask_index_type", 1) == 1 else 1, 3)))


def _mask(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    shape = ctx.shapes.get("mask")
    if shape is None:
        return None
    rng = np.random.default_rng(draw(integers(0, 2**31 - 1)))
    return np.asarray(rng.integers(-1, 3, size=shape), dtype=np.int32)  # 1 counts; 0, 2, -1 do not


EMBED_HINT = OpHint(shapes=_embed_shapes, outputs=_embed_outputs, generic_attributes=True,
                    values={"input_ids": _ids("input_ids", "vocab"), "segment_ids": _ids("segment_ids", "segments"),
                            "position_ids": _ids("position_ids", "positions"), "mask": _mask})


# ---- GroupNorm, SkipGroupNorm ---------------------------------------------------------------------------------------


def _group_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    groups = draw(integers(1, 3))
    c = groups * draw(integers(1, 3))
    n, h, w = draw(integers(1, 2)), draw(integers(1, 3)), draw(integers(1, 3))
    last = draw(integers(0, 1))
    ctx.attributes.update(groups=groups, activation=draw(integers(0, 1)))
    if not last or draw(BOOLEANS):
        ctx.attributes["channels_last"] = last
    if draw(BOOLEANS):
        ctx.attributes["epsilon"] = draw(st.sampled_from([1e-5, 0.1, 1.0]))
    x = [n, h, w, c] if last else [n, c, h, w]
    set_input_shape(ctx, "X", x)
    set_input_shape(ctx, "gamma", [c])
    set_input_shape(ctx, "beta", [c])
    if any(p.name == "skip" for p in ctx.version.inputs):
        spatial_one = [n, 1, 1, c] if last else [n, c, 1, 1]
        set_input_shape(ctx, "skip", draw(st.sampled_from([x, spatial_one, [n, c]])))
        if _maybe(draw, ctx, "bias"):
            set_input_shape(ctx, "bias", [c])


GROUP_HINT = OpHint(shapes=_group_shapes, generic_attributes=False)


# ---- GatedRMSNorm, BranchwiseRMSNorm --------------------------------------------------------------------------------


def _gated_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    c = draw(integers(1, 4))
    x = [draw(integers(1, 3)) for _ in range(draw(integers(0, 2)))] + [c * draw(integers(1, 3))]
    set_input_shape(ctx, "X", x)
    set_input_shape(ctx, "scale", [c])
    set_input_shape(ctx, "gate", x)


def _branchwise_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    c, h = draw(integers(1, 3)), draw(integers(1, 4))
    lead = [draw(integers(1, 3)) for _ in range(draw(integers(0, 2)))]
    if draw(BOOLEANS):
        ctx.attributes["num_branches"] = c
        x = [*lead, c * h]
    else:
        x = [*lead, c, h]
    set_input_shape(ctx, "X", x)
    if _maybe(draw, ctx, "scale"):
        set_input_shape(ctx, "scale", draw(st.sampled_from([[c * h], [c, h], [h]])))


GATED_HINT = OpHint(shapes=_gated_shapes)
BRANCHWISE_HINT = OpHint(shapes=_branchwise_shapes, attributes={"num_branches": lambda draw, ctx: 0})


# ---- GemmaRotaryEmbedding, TorchEmbedding ---------------------------------------------------------------------------


def _gemma_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    b, s, d = draw(integers(1, 2)), draw(integers(1, 3)), draw(integers(1, 4))
    n, nk = draw(integers(1, 3)), draw(integers(1, 3))
    set_input_shape(ctx, "emb", [b, s, d])
    for name, heads in (("q", n), ("q_rot", n), ("k", nk), ("k_rot", nk)):
        set_input_shape(ctx, name, [b, heads, s, d])


def _torch_embedding_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rows = draw(integers(1, 5))
    ctx.scratch.update(rows=rows, neg_rows=-rows)
    set_input_shape(ctx, "weight", [rows, draw(integers(1, 4))])
    set_input_shape(ctx, "indices", [draw(integers(0, 3)) for _ in range(draw(integers(0, 3)))])
    for name in ("padding_idx", "scale_grad_by_freq"):
        if _maybe(draw, ctx, name):
            set_input_shape(ctx, name, [])


GEMMA_HINT = OpHint(shapes=_gemma_shapes)
TORCH_EMBEDDING_HINT = OpHint(shapes=_torch_embedding_shapes,
                              values={"indices": _ids("indices", "rows"),
                                      "padding_idx": _ids("padding_idx", "rows", "neg_rows")})


# ---- RMSNormRotary (no reference kernel: the draw checks shapes and types, and onnxruntime's CPU provider) ----------


def _rms_norm_rotary_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    batch, seq, heads = draw(integers(1, 2)), draw(integers(1, 3)), draw(integers(1, 2))
    stride = 2 * draw(integers(1, 4))
    width = 2 * draw(integers(1, stride // 2))
    start = draw(integers(0, stride - width))
    rot = 2 * draw(integers(1, width // 2))
    rows = seq + draw(integers(0, 3))
    ctx.attributes["rotary_embedding_dim"] = rot
    if start or draw(BOOLEANS):
        ctx.attributes["input_start"] = start
    if width < stride or draw(BOOLEANS):
        ctx.attributes["input_width"] = width
    for name in ("flatten_batch", "output_fp16", "use_fp32_arithmetic"):
        if draw(BOOLEANS):
            ctx.attributes[name] = draw(integers(0, 1))
    if draw(BOOLEANS):
        ctx.attributes["epsilon"] = draw(st.sampled_from([1e-6, 1e-2, 1.0]))
    ctx.scratch.update(rows=rows, base_top=rows - seq + 1)
    set_input_shape(ctx, "X", [batch, seq, heads, stride])
    set_input_shape(ctx, "scale", [width])
    set_input_shape(ctx, "position_ids", draw(st.sampled_from([[1], []])) if draw(BOOLEANS) else [batch, seq])
    set_input_shape(ctx, "cosine", [rows, rot // 2])
    set_input_shape(ctx, "sine", [rows, rot // 2])
    if _maybe(draw, ctx, "prefill_numerics"):
        set_input_shape(ctx, "prefill_numerics", draw(st.sampled_from([[], [1]])))


def _prefill_numerics(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    shape = ctx.shapes.get("prefill_numerics")
    return None if shape is None else np.full(shape, draw(integers(0, 1)), dtype=np.int32)


RMS_NORM_ROTARY_HINT = OpHint(shapes=_rms_norm_rotary_shapes, generic_attributes=False,
                              values={"position_ids": _rotary_positions, "prefill_numerics": _prefill_numerics})
