"""Hints of the sequence and optional ops: positions inside the drawn sequence, splits that cut the axis,
sequences whose tensors concatenate, and the attributes that type an output no input types."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.containers import sequence_shapes
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import OpHint, axis_in
from opset.cells import cell_type
from opset.dtypes import ELEMENT_TYPES, inner_type, tensor_element


def _count(ctx: DrawContext, name: str) -> int:
    return len(ctx.shapes.get(name) or [])


def position(*, at_end: bool) -> Any:
    """A scalar position into `input_sequence`, in the drawn integer type: [-n, n - 1], or [-n, n] `at_end`
    (SequenceInsert appends at n); None where the node leaves it off."""

    def values(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        if "position" in ctx.omitted:
            return None
        n = _count(ctx, "input_sequence")
        top = n if at_end else n - 1
        return np.asarray(draw(st.integers(-n, max(-n, top))), dtype=numpy_dtype(ctx.element_of("I")))

    return values


def _inserted_shape(draw: DrawFn, ctx: DrawContext) -> None:
    """The inserted tensor: one of the sequence's shapes, or a shape of its rank drawn anew (a sequence's tensors
    need not share one)."""
    elements = ctx.shapes.get("input_sequence") or []
    rank = len(elements[0]) if elements else draw(st.integers(0, 3))
    fresh = [draw(st.integers(1, ctx.max_side)) for _ in range(rank)]
    ctx.shapes["tensor"] = list(draw(st.sampled_from(elements))) if elements and draw(st.booleans()) else fresh
    ctx.fixed.add("tensor")


def _concatenable(draw: DrawFn, ctx: DrawContext) -> None:
    """1..3 tensors of one shape but for the axis they are joined on (stacked: one shape), with `axis` and
    `new_axis` to match."""
    stack = draw(st.booleans())
    rank = draw(st.integers(0 if stack else 1, 3))
    axis = axis_in(draw, rank + int(stack))
    base = sequence_shapes(draw, ctx, min_length=1, max_length=1, rank=rank)[0]
    count = draw(st.integers(1, 3))
    at = axis + rank + int(stack) if axis < 0 else axis
    shapes = [list(base) for _ in range(count)]
    if not stack:
        for shape in shapes:
            shape[at] = draw(st.integers(1, ctx.max_side))
    ctx.shapes["input_sequence"] = shapes
    ctx.attributes["axis"] = axis
    if stack or draw(st.booleans()):
        ctx.attributes["new_axis"] = int(stack)


def _split_axis(draw: DrawFn, ctx: DrawContext) -> object:
    return axis_in(draw, len(ctx.shapes.get("input") or [])) if draw(st.integers(0, 3)) else OMIT


def _split_lengths(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    """Left off, a positive scalar (parts of that length, the last one shorter) or 1-D lengths (zeros
    included) that add up to the axis."""
    if "split" in ctx.omitted:
        return None
    shape = ctx.shapes["input"]
    axis = int(ctx.attributes.get("axis", 0))
    size = shape[axis + len(shape) if axis < 0 else axis]
    dtype = numpy_dtype(ctx.element_of("I"))
    if draw(st.booleans()):
        return np.asarray(draw(st.integers(1, max(1, size + 1))), dtype=dtype)
    cuts = sorted(draw(st.lists(st.integers(0, size), min_size=0, max_size=3)))
    edges = [0, *cuts, size]
    return np.asarray([b - a for a, b in itertools.pairwise(edges)], dtype=dtype)


def _element_code(draw: DrawFn, ctx: DrawContext) -> object:
    """SequenceEmpty's dtype: the element of the cell's sequence type (left off, float is the default)."""
    element = tensor_element(inner_type(cell_type(ctx.dtype)) or "")
    code = ELEMENT_TYPES[element][0] if element is not None else None
    if code == ELEMENT_TYPES["float"][0] and draw(st.booleans()):
        return OMIT
    return code if code is not None else OMIT


def _optional_type(draw: DrawFn, ctx: DrawContext) -> object:
    """Optional's `type`: without an input it names the optional's content (the cell's type)."""
    if "input" not in ctx.omitted:
        return OMIT
    from opset.validate.facts import type_proto

    return type_proto(cell_type(ctx.type_bindings.get("V", ctx.dtype))) or OMIT


SEQUENCE_AT_HINT = OpHint(values={"position": position(at_end=False)})
SEQUENCE_ERASE_HINT = OpHint(values={"position": position(at_end=False)})
SEQUENCE_INSERT_HINT = OpHint(shapes=_inserted_shape, values={"position": position(at_end=True)})
CONCAT_FROM_SEQUENCE_HINT = OpHint(shapes=_concatenable)
SPLIT_TO_SEQUENCE_HINT = OpHint(min_rank=1, attributes={"axis": _split_axis}, values={"split": _split_lengths})
SEQUENCE_EMPTY_HINT = OpHint(attributes={"dtype": _element_code})
OPTIONAL_HINT = OpHint(attributes={"type": _optional_type})
