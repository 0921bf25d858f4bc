"""Hints for the loss ops: class labels must name a class (or the ignore_index) of the scores' class axis."""

from __future__ import annotations

import numpy as np

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.memo import BOOLEANS, integers


def _labels(name: str) -> object:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        shape = ctx.shapes[name]
        classes = int(ctx.dims.get("C", 1))
        seed = draw(integers(0, 2**31 - 1))
        rng = np.random.default_rng(seed)
        labels = rng.integers(0, classes, size=shape)
        ignore = ctx.attributes.get("ignore_index")
        if isinstance(ignore, int) and labels.size and draw(BOOLEANS):
            labels.flat[rng.integers(0, labels.size)] = ignore  # some sample is ignored
        return np.asarray(labels.astype(ctx.element_of(ctx.version.inputs[1].type)))

    return build
