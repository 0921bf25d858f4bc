"""Hints for com.microsoft's tensor ops whose onnxruntime kernels have a behaviour of their own to reach: Range's
float accumulation, Unique's NaNs and signed zeros."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import OpHint, set_input_shape
from conformance.strategies.memo import integers
from conformance.strategies.values import SEEDS, fill_array


def _range_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    for name in ("start", "limit", "delta"):
        if name == "delta" and draw(integers(0, 3)) == 0:
            ctx.omitted.add(name)
            ctx.shapes[name] = None
            continue
        ctx.omitted.discard(name)
        set_input_shape(ctx, name, draw(st.sampled_from([[], [], [1]])))


def _range_values(draw: DrawFn, ctx: DrawContext) -> dict[str, float]:
    """start, delta and limit, limit half a step short of start + count * delta so the count is unambiguous."""
    if "range" not in ctx.scratch:
        real = ctx.dtype in ("float", "double", "float16")
        if real:
            delta = draw(st.sampled_from([0.1, 0.3, -0.7, 0.05, -0.01, 0.25, 1.0]))
            start = draw(integers(-40, 40)) / 10
        else:
            delta = float(draw(st.sampled_from([-3, -2, -1, 1, 2, 3])))
            start = float(draw(integers(-10, 10)))
        # a long float range now and then: the drift of value += delta then exceeds the comparison's tolerance
        count = draw(integers(0, 40 if real else 12)) if not real or draw(integers(0, 3)) else \
            draw(integers(1000, 3000))
        delta_given = "delta" not in ctx.omitted
        if not delta_given:
            delta = 1.0
        limit = start + (count - 0.5) * delta if real else start + count * delta
        ctx.scratch["range"] = {"start": start, "limit": limit, "delta": delta}
    values: dict[str, float] = ctx.scratch["range"]
    return values


def _range_value(name: str) -> Callable[[DrawFn, DrawContext], np.ndarray | None]:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        if ctx.shapes[name] is None:
            return None  # delta left off the node
        v = _range_values(draw, ctx)[name]
        return np.full(ctx.shapes[name], v, dtype=numpy_dtype(ctx.dtype))

    return build


# scalars or one-element vectors, delta absent a quarter of the time; float steps that are inexact in binary over up
# to 40 elements or 1000 to 3000, where onnxruntime's value += delta drifts from start + i * delta
RANGE_HINT = OpHint(shapes=_range_shapes, values={n: _range_value(n) for n in ("start", "limit", "delta")},
                    generic_attributes=False)


def _unique_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    set_input_shape(ctx, "x", [draw(integers(0, 24))])


def _unique_x(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    element = ctx.element_of(ctx.version.inputs[0].type)
    n = ctx.shapes["x"][0]
    x = fill_array(draw(SEEDS), element, [n], min_value=-2, max_value=2)
    if element in ("float", "double", "float16") and n:
        rng = np.random.default_rng(draw(SEEDS))
        special = np.asarray([np.nan, -0.0, 0.0], dtype=x.dtype)
        where = rng.random(n) < 0.3
        x = np.where(where, special[rng.integers(0, 3, size=n)], x).astype(x.dtype)
    return np.asarray(x)


# 1-d values with repeats; floats with NaNs (each its own value) and both signed zeros (one value)
UNIQUE_HINT = OpHint(shapes=_unique_shapes, values={"x": _unique_x}, generic_attributes=False)
