"""Hints for the ai.onnx reductions and their relatives (Reduce*, ArgMax/ArgMin, TopK, Unique, NonZero): axes
and k that fit the drawn shape, empty tensors now and then (the empty-set results are part of each op's
definition), and data with the repeats that tie rules, `Unique` and `NonZero` are about.
"""

from __future__ import annotations

import numpy as np

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import (
    ArrayHint,
    OpHint,
    ShapeHint,
    axis_in,
    dims,
    distinct_axes,
    int64_array,
    set_first_shape,
)
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array


def _rank(ctx: DrawContext) -> int:
    return len(ctx.first_shape())


def _shape(minimum: int, *, empty: bool, empty_ints: bool = True) -> ShapeHint:
    """Rank in [minimum, 4]; with `empty`, about one draw in four gets a zero-size dim (with `empty_ints` false,
    only in float cells)."""
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        shape = dims(draw, draw(integers(minimum, 4)), ctx.max_side)
        integer = ctx.dtype.startswith(("int", "uint"))
        if empty and (empty_ints or not integer) and shape and draw(integers(0, 3)) == 0:
            shape[draw(integers(0, len(shape) - 1))] = 0
        set_first_shape(ctx, shape)

    return shapes


def _signed(draw: DrawFn, axes: list[int], rank: int) -> list[int]:
    """Each axis, or its negative spelling, at random."""
    return [a - rank if draw(BOOLEANS) else a for a in axes]


# ---- Reduce*: the axes attribute (to version 17, ReduceSum to 12) or input (from 18, ReduceSum from 13) ----

def _axes_attribute(draw: DrawFn, ctx: DrawContext) -> object:
    rank = _rank(ctx)
    choice = draw(integers(0, 3))
    if choice == 0 or rank == 0:
        return OMIT
    if choice == 1:
        return []  # an empty list reduces every axis too
    return _signed(draw, distinct_axes(draw, rank), rank)


def _axes_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    rank = _rank(ctx)
    choice = draw(integers(0, 3))
    if choice == 0:
        return None
    if choice == 1 or rank == 0:
        return int64_array([])  # empty: every axis, or none with noop_with_empty_axes=1
    return int64_array(_signed(draw, distinct_axes(draw, rank), rank))


def _data_in(low: float, high: float) -> ArrayHint:
    """The data input filled with values in [low, high]."""
    def fill(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        param = ctx.version.inputs[0]
        return fill_array(draw(SEEDS), ctx.element_of(param.type), ctx.shapes[param.name], min_value=low,
                          max_value=high)

    return fill


def reduce_hints(axes_input_since: int, data: ArrayHint | None = None, *,
                 logarithm: bool = False) -> tuple[OpHint, ...]:
    """With `logarithm`, integer cells draw no empty set: its log is minus infinity, which no integer holds."""
    values: dict[str, ArrayHint] = {} if data is None else {"data": data}
    shapes = _shape(0, empty=True, empty_ints=not logarithm)
    return (
        OpHint(shapes=shapes, attributes={"axes": _axes_attribute}, values=values, until=axes_input_since - 1),
        OpHint(shapes=shapes, values={"axes": _axes_input, **values}, since=axes_input_since),
    )


# an integer log needs a positive sum (a sum <= 0 is undefined), and a float sum near zero flips between
# -inf and NaN on rounding: the data stays positive (empty sets still give -inf)
LOG_SUM_DATA = _data_in(0.25, 4.0)


# ---- ArgMax, ArgMin, TopK: an axis inside the rank and a k that fits it ------------------------------------

def _axis(draw: DrawFn, ctx: DrawContext) -> int:
    return axis_in(draw, _rank(ctx))


ARG_HINT = OpHint(shapes=_shape(1, empty=False), attributes={"axis": _axis}, values={"data": _data_in(-2, 2)})


def _axis_size(ctx: DrawContext) -> int:
    shape = ctx.first_shape()
    axis = int(ctx.attributes.get("axis", -1))
    return int(shape[axis])


def _k_attribute(draw: DrawFn, ctx: DrawContext) -> int:
    return int(draw(integers(1, _axis_size(ctx))))  # version 1 needs k >= 1


def _k_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return int64_array([int(draw(integers(0, _axis_size(ctx))))])


def _maybe_axis(draw: DrawFn, ctx: DrawContext) -> object:
    return _axis(draw, ctx) if _rank(ctx) and draw(BOOLEANS) else OMIT


# values in [-2, 2] repeat often: the tie rule (lower index first) decides many draws
TOP_K_HINTS = (
    OpHint(shapes=_shape(1, empty=False), attributes={"axis": _maybe_axis, "k": _k_attribute},
           values={"X": _data_in(-2, 2)}, until=9),
    OpHint(shapes=_shape(1, empty=False), attributes={"axis": _maybe_axis},
           values={"X": _data_in(-2, 2), "K": _k_input}, since=10),
)


# ---- Unique: slices that repeat along the axis; NonZero: zeros among the values ------------------------

def _unique_data(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """X built from a few distinct slices picked with repeats along the axis (or values with repeats)."""
    param = ctx.version.inputs[0]
    shape = list(ctx.shapes[param.name])
    element = ctx.element_of(param.type)
    axis = ctx.attributes.get("axis")
    if axis is None or not shape or shape[axis] == 0:
        return fill_array(draw(SEEDS), element, shape, min_value=-2, max_value=2)
    source = list(shape)
    source[axis] = draw(integers(1, 3))
    slices = fill_array(draw(SEEDS), element, source, min_value=-1, max_value=1)
    picks = np.random.default_rng(draw(SEEDS)).integers(0, source[axis], size=shape[axis])
    return np.asarray(np.take(slices, picks, axis=int(axis)))


def _unique_axis(draw: DrawFn, ctx: DrawContext) -> object:
    """An axis or none; none for an empty X: onnxruntime (1.32) aborts the whole process on slices of an empty
    tensor (a crash conform would report for every cell), so that case is left to the op's own tests."""
    return OMIT if 0 in ctx.first_shape() else _maybe_axis(draw, ctx)


UNIQUE_HINT = OpHint(shapes=_shape(0, empty=True), attributes={"axis": _unique_axis},
                     values={"X": _unique_data})

NON_ZERO_HINT = OpHint(shapes=_shape(0, empty=True), values={"X": _data_in(-1, 1)})

