"""The LSTM draw that com.microsoft's DynamicQuantizeLSTM and AttnLSTM build on (their hints add per-gate
quantization and the attention sizes): W, R, B, P and the states agree with hidden_size, the direction count, the
layout and the input size, and the activation lists with the direction count. RNN, GRU and LSTM themselves draw the
same from their YAML (schemas/ai.onnx/{RNN,GRU,LSTM}.yaml, `dims` and `domain`). Sizes stay small (seq_length 1..4,
batch 1..3, hidden 1..4) and values moderate, so that a wrong step shows without float16 overflowing.

hidden_size is always written: onnxruntime refuses a node without it (the registry derives it from R).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import ArrayHint, OpHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
PER_DIRECTION = {"RNN": 1, "GRU": 2, "LSTM": 3}  # activation functions per direction
ACTIVATIONS = ("Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh", "HardSigmoid",
               "Elu", "Softsign", "Softplus")
TAKES_ALPHA = frozenset({"Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu"})
TAKES_BETA = frozenset({"Affine", "ScaledTanh", "HardSigmoid"})
BOUNDED = frozenset({"Tanh", "Sigmoid", "ScaledTanh", "HardSigmoid", "Softsign"})  # outputs within fixed bounds
# alpha and beta values: none of them 0 (which would hide a function), some of them negative
SCALES = (-0.5, 0.25, 0.5, 0.75, 1.5, 2.0)
# the inputs drawn here, with the magnitude of their values
MAGNITUDE = {"X": 2.0, "W": 1.0, "R": 1.0, "B": 1.0, "initial_h": 1.0, "initial_c": 1.0, "P": 1.0}


def _absent(ctx: DrawContext, name: str) -> None:
    ctx.shapes[name] = None
    ctx.omitted.add(name)


def _recurrent_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    op = ctx.version.name
    gates, names = GATES[op], {p.name for p in ctx.version.inputs}
    # seq_length uniform in 1..4 (integers() would favour 1, where a sequence cannot be shorter but empty)
    seq, batch, hidden, size = (draw(st.sampled_from([3, 4, 2, 1])), draw(integers(1, 3)),
                                draw(integers(1, 4)), draw(integers(1, 3)))
    # "": the default; bidirectional (both passes at once) and reverse drawn twice as often as the forward ones,
    # so that either pass runs in two draws of three
    direction = draw(st.sampled_from(["bidirectional", "", "reverse", "forward", "bidirectional", "reverse"]))
    if direction:
        ctx.attributes["direction"] = direction
    directions = 2 if direction == "bidirectional" else 1
    layout = draw(integers(0, 1)) if "layout" in ctx.version.attributes else 0
    if "layout" in ctx.version.attributes and (layout or draw(BOOLEANS)):
        ctx.attributes["layout"] = layout
    ctx.attributes["hidden_size"] = hidden
    ctx.shapes["X"] = [seq, batch, size] if layout == 0 else [batch, seq, size]
    ctx.shapes["W"] = [directions, gates * hidden, size]
    ctx.shapes["R"] = [directions, gates * hidden, hidden]
    state = [directions, batch, hidden] if layout == 0 else [batch, directions, hidden]
    optional = {"B": [directions, 2 * gates * hidden], "sequence_lens": [batch], "initial_h": state,
                "initial_c": list(state), "P": [directions, 3 * hidden]}
    for name, shape in optional.items():
        if name in names:
            # sequence_lens in three draws of four: shorter sequences are where the passes differ most
            if draw(integers(0, 3)) != 3 if name == "sequence_lens" else not draw(BOOLEANS):
                ctx.shapes[name] = list(shape)
                ctx.omitted.discard(name)
            else:
                _absent(ctx, name)
    ctx.scratch["seq"] = seq
    _draw_activations(draw, ctx, op, directions)
    if draw(BOOLEANS) or _unbounded_gates(ctx, op):
        ctx.attributes["clip"] = draw(st.sampled_from([0.25, 0.5, 1.0, 2.5]))
    # the gate flags set in half the draws, written as 0 in a quarter; output_sequence changes no value
    for flag in ("input_forget", "linear_before_reset"):
        if flag in ctx.version.attributes:
            value = draw(st.sampled_from([1, 0, None, 1]))
            if value is not None:
                ctx.attributes[flag] = value
    if "output_sequence" in ctx.version.attributes and draw(BOOLEANS):
        ctx.attributes["output_sequence"] = draw(integers(0, 1))


def _unbounded_gates(ctx: DrawContext, op: str) -> bool:
    """Whether a GRU or LSTM gate function (the first of each direction's group) is unbounded: the gates then
    multiply the state by itself, which grows past any float range within a few steps (and past what
    onnxruntime's Softplus, log(1 + e^x), survives: e^x overflows at x > 88), unless a clip bounds them."""
    names = ctx.attributes.get("activations")
    if op == "RNN" or names is None:
        return False
    per = PER_DIRECTION[op]
    return any(name not in BOUNDED for name in names[::per])


def _draw_activations(draw: DrawFn, ctx: DrawContext, op: str, directions: int) -> None:
    """A third of the time the default functions; else a drawn list (RNN one-direction: one or two names), with alpha
    and beta lists that mostly reach every function that takes them (else stop short of some: their defaults).

    ThresholdedRelu, and an Affine left to its defaults, are drawn rarely: onnxruntime reads both differently
    (the readings `<op>_r1`, `<op>_r2`), and a wrong backend's failure on such a case only counts as ambiguous.
    """
    if draw(integers(0, 2)) == 0:
        return
    count = PER_DIRECTION[op] * directions
    if op == "RNN" and directions == 1 and draw(BOOLEANS):
        count = 2  # the default's length: the second function is not used
    pool = ACTIVATIONS if draw(integers(0, 7)) == 0 else tuple(a for a in ACTIVATIONS if a != "ThresholdedRelu")
    names = [draw(st.sampled_from(pool)) for _ in range(count)]
    ctx.attributes["activations"] = names
    short = "ScaledTanh" not in names and draw(integers(0, 3)) == 0
    for attr, takers in (("activation_alpha", TAKES_ALPHA), ("activation_beta", TAKES_BETA)):
        needed = sum(1 for n in names if n in takers)
        given = draw(integers(0, needed)) if short else needed
        if given:
            ctx.attributes[attr] = [draw(st.sampled_from(SCALES)) for _ in range(given)]


def _scaled(name: str) -> ArrayHint:
    def values(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None:
            return None
        bound = MAGNITUDE[name]
        return fill_array(draw(SEEDS), ctx.dtype, shape, min_value=-bound, max_value=bound)

    return values


def _sequence_lens(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    """Lengths in [1, seq_length], now and then a 0; in seven draws of eight one entry is shorter than the
    sequence (where there is room), since full lengths tell nothing about how they are followed."""
    shape = ctx.shapes.get("sequence_lens")
    if shape is None:
        return None
    seq = int(ctx.scratch["seq"])
    lengths = [draw(integers(0 if draw(integers(0, 5)) == 0 else 1, seq)) for _ in range(shape[0])]
    if seq > 1 and draw(integers(0, 7)) != 7:
        lengths[draw(integers(0, shape[0] - 1))] = draw(integers(1, seq - 1))
    return np.asarray(lengths, dtype=np.int32)


def _output_count(draw: DrawFn, ctx: DrawContext) -> int:
    """At least one output (every output may be optional: a node without any checks nothing), all of them in
    half the draws: the final states show what Y hides (a wrong last step of a shorter sequence)."""
    outputs = ctx.version.outputs
    required = max((i + 1 for i, p in enumerate(outputs) if not p.optional), default=1)
    return len(outputs) if not draw(BOOLEANS) else int(draw(integers(required, len(outputs))))


RECURRENT_HINT = OpHint(shapes=_recurrent_shapes, generic_attributes=False, outputs=_output_count,
                        values={**{name: _scaled(name) for name in MAGNITUDE}, "sequence_lens": _sequence_lens})
