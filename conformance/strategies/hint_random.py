"""Hints for the ai.onnx ops that draw random values: RandomNormal, RandomUniform, their *Like forms, Bernoulli,
Multinomial (Dropout's are in hint_tensor).

The output type comes from the `dtype` attribute: these hints draw it in step with the cell (the output's type for
the ops without inputs) or among the targets numpy holds (the *Like ops and Bernoulli, whose cell is the input's
type; an input type the output cannot take needs a dtype). Bernoulli's probabilities are drawn in [0, 1] on quarter
steps, so 0 and 1 (the certain draws) come up; Multinomial's logits now and then hold -inf, a class of probability
0 that must never be drawn.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_cast import code_of, drawable_targets
from conformance.strategies.hints import OpHint, ValueHint
from conformance.strategies.memo import BOOLEANS
from conformance.strategies.values import SEEDS, fill_array


def _cell_dtype(draw: DrawFn, ctx: DrawContext) -> object:
    """RandomNormal, RandomUniform: the cell's type (the output's); float, the default, may be left off."""
    if ctx.dtype == "float" and draw(BOOLEANS):
        return OMIT
    return code_of(ctx.dtype)


def _target_dtype(output_type: str) -> ValueHint:
    """The *Like ops and Bernoulli: a target numpy holds, or none where the input's type is one the output takes."""

    def dtype(draw: DrawFn, ctx: DrawContext) -> object:
        targets = drawable_targets(ctx, output_type)
        if ctx.dtype in targets and draw(BOOLEANS):
            ctx.type_bindings[output_type] = ctx.dtype
            return OMIT
        target = draw(st.sampled_from(targets))
        ctx.type_bindings[output_type] = target
        return code_of(target)

    return dtype


def _probabilities(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return fill_array(draw(SEEDS), ctx.dtype, list(ctx.shapes["input"]), min_value=0.0, max_value=1.0)


def _logits(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Logits with -inf at some classes now and then (never a whole row)."""
    shape = list(ctx.shapes["input"])
    logits = fill_array(draw(SEEDS), ctx.dtype, shape)
    if draw(BOOLEANS) and shape[1] > 1:
        rng = np.random.default_rng(draw(SEEDS))
        impossible = rng.random(shape) < 0.5
        impossible[np.arange(shape[0]), rng.integers(0, shape[1], size=shape[0])] = False
        logits[impossible] = -np.inf
    return logits


def _multinomial_dtype(draw: DrawFn, ctx: DrawContext) -> object:
    target = draw(st.sampled_from(["int32", "int64", None]))
    ctx.type_bindings["T2"] = target or "int32"  # int32 is the default
    return OMIT if target is None else code_of(target)


GENERATOR_HINT = OpHint(attributes={"dtype": _cell_dtype})
LIKE_HINT = OpHint(attributes={"dtype": _target_dtype("T2")})
BERNOULLI_HINT = OpHint(attributes={"dtype": _target_dtype("T2")}, values={"input": _probabilities})
MULTINOMIAL_HINT = OpHint(attributes={"dtype": _multinomial_dtype}, values={"input": _logits})
