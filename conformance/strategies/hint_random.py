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
from conformance.strategies.hint_cast import code_of
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import BOOLEANS
from conformance.strategies.values import SEEDS, fill_array


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


MULTINOMIAL_HINT = OpHint(attributes={"dtype": _multinomial_dtype}, values={"input": _logits})
