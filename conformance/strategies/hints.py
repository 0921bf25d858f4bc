"""Per-op hints: the last resort where the schema cannot (yet) say how to build a valid case.

A hint may fix input shapes (`shapes`, which may also preset attributes), build attribute values
(`attributes`) or whole input arrays (`values`, e.g. Reshape's `shape` input, whose values the schema
only constrains through the data). Everything else is drawn generically from the schema. The table
and `hint_for` live in `conformance.strategies.hint_table`; an op absent from it gets no hint. This
module holds the record and the building blocks the table's hints share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.memo import integers
from conformance.strategies.values import SEEDS, fill_array

ShapeHint = Callable[[DrawFn, DrawContext], None]
ValueHint = Callable[[DrawFn, DrawContext], Any]
ArrayHint = Callable[[DrawFn, DrawContext], np.ndarray | None]


@dataclass(frozen=True)
class OpHint:
    min_rank: int = 0  # for `*S` tuples
    max_rank: int | None = None
    shapes: ShapeHint | None = None
    attributes: dict[str, ValueHint] = field(default_factory=dict)
    values: dict[str, ArrayHint] = field(default_factory=dict)
    generic_attributes: bool = True  # False: attributes the hint does not set stay off the node
    # how many outputs the node asks for (a prefix of the version's outputs); None: any count from the
    # required ones to all of them
    outputs: Callable[[DrawFn, DrawContext], int] | None = None
    since: int = 1  # the hint applies to versions with since >= this ...
    until: int | None = None  # ... and <= this


# ---- building blocks shared by the table ------------------------------------------------------------

def dims(draw: DrawFn, rank: int, max_side: int, *, low: int = 1) -> list[int]:
    return [draw(integers(low, max(low, max_side))) for _ in range(rank)]


def set_input_shape(ctx: DrawContext, name: str, shape: list[int]) -> None:
    """Give input `name` the shape `shape` and its signature's dims and tuples the matching values.

    The constraints and shape formulas read the signature names from `ctx.dims`, so a hint that picks a
    shape must keep them in step (`*S` takes the whole shape; a named dim takes its position).
    """
    param = next(p for p in ctx.version.inputs if p.name == name)
    ctx.shapes[name] = list(shape)
    ctx.fixed.add(name)
    signature = list(param.shape or ())
    star = [i for i, item in enumerate(signature) if isinstance(item, str) and item.startswith("*")]
    if star:
        at = star[0]
        tail = len(signature) - at - 1
        ctx.dims[str(signature[at])[1:]] = list(shape[at:len(shape) - tail])
        named = list(zip(signature[:at], shape[:at], strict=False))
        named += list(zip(signature[at + 1:], shape[len(shape) - tail:], strict=False))
    else:
        named = list(zip(signature, shape, strict=False))
    for item, size in named:
        if isinstance(item, str):
            ctx.dims[item] = int(size)


def values_in(name: str, low: float, high: float) -> ArrayHint:
    """Input `name` filled with values in [low, high] (quarter steps for floats), for ops whose meaning changes at a
    constant outside the generic draw's [-4, 4] (Relu6 clips at 6: a backend clipping at 5 must be caught), or must
    stay positive (scales)."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        param = next(p for p in ctx.version.inputs if p.name == name)
        return fill_array(draw(SEEDS), ctx.element_of(param.type), shape, min_value=low, max_value=high)

    return build
