"""Container inputs: sequences of 0..3 tensors of one rank and element type, optionals empty or present, maps.

`draw_layout` decides what a container input holds (a sequence's element shapes, an optional's content or
emptiness); the case builder keeps that in `ctx.shapes` (where a hint may change it, as for tensors) and
`fill_container` makes the value from it. A map has no layout: its keys and values are drawn whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array
from opset.dtypes import inner_type, map_parts, tensor_element, type_kind

MAX_LENGTH = 3  # elements of a drawn sequence, entries of a drawn map
MAX_CONTAINER_RANK = 3


def draw_layout(draw: DrawFn, ctx: DrawContext, name: str, type_text: str, *, min_length: int = 0,
                max_length: int = MAX_LENGTH) -> Any:
    """What a container of `type_text` will hold: a sequence's element shapes, an optional's content (None with
    `name` in `ctx.empty` when it is empty), a tensor's shape; None for a map."""
    kind = type_kind(type_text)
    if kind == "seq":
        inner = inner_type(type_text) or ""
        if type_kind(inner) != "tensor":
            count = draw(integers(min_length, max(min_length, max_length)))
            return [draw_layout(draw, ctx, name, inner) for _ in range(count)]
        return sequence_shapes(draw, ctx, min_length=min_length, max_length=max_length)
    if kind == "optional":
        if draw(integers(0, 2)) == 0:
            ctx.empty.add(name)
            return None
        return draw_layout(draw, ctx, name, inner_type(type_text) or "", min_length=min_length,
                           max_length=max_length)
    if kind == "tensor":
        rank = draw(integers(0, MAX_CONTAINER_RANK))
        return [draw(integers(1, ctx.max_side)) for _ in range(rank)]
    return None


def sequence_shapes(draw: DrawFn, ctx: DrawContext, *, min_length: int = 0, max_length: int = MAX_LENGTH,
                    rank: int | None = None, alike: bool | None = None, axis: int | None = None) -> list[list[int]]:
    """Element shapes of one rank: one shape for all (`alike`; None: half the time), but for `axis` where given (each
    element its own size there), else each drawn on its own."""
    if not 0 <= min_length <= max_length:
        raise ValueError(f"min_length={min_length} and max_length={max_length} need 0 <= min_length <= max_length")
    count = draw(integers(min_length, max_length))
    rank = draw(integers(0, MAX_CONTAINER_RANK)) if rank is None else rank
    first = [draw(integers(1, ctx.max_side)) for _ in range(rank)]
    if alike if alike is not None else draw(BOOLEANS):
        shapes = [list(first) for _ in range(count)]
        if axis is not None and rank:
            for shape in shapes[1:]:
                shape[axis % rank] = draw(integers(1, ctx.max_side))
        return shapes
    return [first] + [[draw(integers(1, ctx.max_side)) for _ in range(rank)] for _ in range(count - 1)] \
        if count else []


def is_tensor_sequence(type_text: str) -> bool:
    """Whether `type_text` is a sequence of tensors (what a sequence input's domain describes)."""
    return type_kind(type_text) == "seq" and type_kind(inner_type(type_text) or "") == "tensor"


def fill_container(draw: DrawFn, ctx: DrawContext, name: str, type_text: str, layout: Any) -> Any:
    """The value of a container input from its layout (see `draw_layout`)."""
    kind = type_kind(type_text)
    if kind == "tensor":
        return fill_array(draw(SEEDS), tensor_element(type_text) or "", layout)
    if kind == "seq":
        inner = inner_type(type_text) or ""
        return [fill_container(draw, ctx, name, inner, item) for item in layout or []]
    if kind == "optional":
        if name in ctx.empty and layout is None:
            return None
        return fill_container(draw, ctx, name, inner_type(type_text) or "", layout)
    if kind == "map":
        return draw_map(draw, type_text)
    raise ValueError(f"{ctx.version.signature}: input '{name}' of type {type_text} cannot be drawn")


def draw_map(draw: DrawFn, type_text: str, *, max_length: int = MAX_LENGTH) -> dict[Any, Any]:
    """A map of 0..max_length entries: distinct small int64 keys or short string keys, scalar values of the
    value type's element (numpy scalars, so the element type travels with them)."""
    parts = map_parts(type_text)
    if parts is None:
        raise ValueError(f"{type_text} is no map type")
    key_type, value_type = parts
    count = draw(integers(0, max_length))
    if key_type == "string":
        keys: list[Any] = draw(st.lists(st.sampled_from(["a", "b", "cat", "dog", "x1", "z"]), min_size=count,
                                        max_size=count, unique=True))
    else:
        keys = [int(k) for k in draw(st.lists(integers(-3, 12), min_size=count, max_size=count, unique=True))]
    element = tensor_element(value_type) or ""
    values = fill_array(draw(SEEDS), element, [count])
    dtype = numpy_dtype(element)
    return {k: dtype.type(v) for k, v in zip(keys, values, strict=True)}


def layout_size(layout: Any) -> int:
    """How many numbers a layout's value will hold."""
    if layout is None:
        return 0
    if isinstance(layout, list) and all(isinstance(d, int) for d in layout):
        return int(np.prod(layout)) if layout else 1
    return sum(layout_size(item) for item in layout)
