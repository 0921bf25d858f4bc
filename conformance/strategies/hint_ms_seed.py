"""The hint of AttnLSTM, an old com.microsoft op seed 002 documents: shapes and values the
schemas state as constraints but the generic builder cannot solve (one draw in many would satisfy them).

- AttnLSTM: ai.onnx LSTM's draw (directions, optional inputs, activations, clip, input_forget; see
  hint_recurrent), then the attention mechanism's sizes (memory steps and depth, attention size, the optional
  attention layer) and W's last dim, which reads [X_t, attention state]; lengths inside their sequences.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_recurrent import RECURRENT_HINT
from conformance.strategies.hints import ArrayHint, OpHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

# ---- AttnLSTM ---------------------------------------------------------------------------------------------

# the inputs drawn here, with the magnitude of their values (the LSTM's as hint_recurrent draws them)
_ATTN_MAGNITUDE = {"X": 2.0, "W": 1.0, "R": 1.0, "B": 1.0, "initial_h": 1.0, "initial_c": 1.0, "P": 1.0,
                   "QW": 1.0, "MW": 1.0, "V": 1.0, "M": 2.0, "AW": 1.0}


def _present(ctx: DrawContext, name: str, shape: list[int]) -> None:
    ctx.shapes[name] = list(shape)
    ctx.omitted.discard(name)


def _absent(ctx: DrawContext, name: str) -> None:
    ctx.shapes[name] = None
    ctx.omitted.add(name)


def _attn_lstm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """LSTM's draw on this node (as an ai.onnx LSTM), then QW [D, H, AM], MW [D, MD, AM], V [D, AM], M [Bt, T, MD]
    (required: attnlstm_c1), memory_seq_lens [Bt] and AW [D, MD + H, AL] in half the draws each; W
    [D, 4H, I + (AL if AW else MD)] (attnlstm_c5)."""
    shapes = RECURRENT_HINT.shapes
    assert shapes is not None
    real = ctx.version
    ctx.version = replace(real, name="LSTM")
    try:
        shapes(draw, ctx)
    finally:
        ctx.version = real
    directions, four_hidden, size = ctx.shapes["W"]
    hidden, batch = four_hidden // 4, ctx.shapes["X"][1]
    steps, depth, attn = draw(integers(1, 3)), draw(integers(1, 3)), draw(integers(1, 3))
    ctx.scratch["memory_steps"] = steps
    _present(ctx, "QW", [directions, hidden, attn])
    _present(ctx, "MW", [directions, depth, attn])
    _present(ctx, "V", [directions, attn])
    _present(ctx, "M", [batch, steps, depth])
    if draw(BOOLEANS):
        _present(ctx, "memory_seq_lens", [batch])
    else:
        _absent(ctx, "memory_seq_lens")
    layer = depth
    if draw(BOOLEANS):
        layer = draw(integers(1, 3))
        _present(ctx, "AW", [directions, depth + hidden, layer])
    else:
        _absent(ctx, "AW")
    ctx.shapes["W"] = [directions, four_hidden, size + layer]


def _attn_scaled(name: str) -> ArrayHint:
    def values(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        bound = _ATTN_MAGNITUDE[name]
        return fill_array(draw(SEEDS), ctx.dtype, shape, min_value=-bound, max_value=bound)

    return values


def _lengths(name: str, total: str) -> ArrayHint:
    """Lengths in [1, total] (attnlstm_c9, _c10: onnxruntime refuses 0), in seven draws of eight one entry shorter
    than the whole (where there is room): full lengths tell nothing about how a shorter one is followed."""

    def values(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        top = int(ctx.scratch[total])
        lengths = [draw(integers(1, top)) for _ in range(shape[0])]
        if top > 1 and draw(integers(0, 7)) != 7:
            lengths[draw(integers(0, shape[0] - 1))] = draw(integers(1, top - 1))
        return np.asarray(lengths, dtype=np.int32)

    return values


ATTN_LSTM_HINT = OpHint(
    shapes=_attn_lstm_shapes, generic_attributes=False, outputs=RECURRENT_HINT.outputs,
    values={**{name: _attn_scaled(name) for name in _ATTN_MAGNITUDE},
            "sequence_lens": _lengths("sequence_lens", "seq"),
            "memory_seq_lens": _lengths("memory_seq_lens", "memory_steps")})
