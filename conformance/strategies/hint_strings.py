"""Hints for string tensors in ops that mostly compute with numbers.

Many ops accept every tensor type, strings included, but some of their modes need arithmetic on the elements
(linear or cubic interpolation, a product reduction), which strings do not have: the kernels reject such a case
as undefined. `strings_keep` wraps an op's hint so that a string cell draws an attribute only among the values
that pick, move or concatenate elements; every other cell draws it as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn, draw_attribute
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, ValueHint


def draws_strings(ctx: DrawContext) -> bool:
    """Whether the draw is one of a string cell (the primary input holds strings)."""
    return ctx.dtype == "string"


def strings_keep(hint: OpHint, **allowed: tuple[Any, ...]) -> OpHint:
    """`hint` with each named attribute drawn, in a string cell, only among `allowed[name]` (left off the node
    where its default is one of them, in half of those draws)."""
    attributes = dict(hint.attributes)
    for name, values in allowed.items():
        attributes[name] = _restricted(name, tuple(values), attributes.get(name))
    return replace(hint, attributes=attributes)


def _restricted(name: str, values: tuple[Any, ...], original: ValueHint | None) -> Callable[[DrawFn, DrawContext], Any]:
    def draw_value(draw: DrawFn, ctx: DrawContext) -> Any:
        attr = ctx.version.attributes[name]
        if not draws_strings(ctx):
            if original is not None:
                return original(draw, ctx)
            return draw_attribute(draw, attr, {}, default_rank=1)
        choices = [v for v in (attr.allowed or values) if v in values]
        if not choices:
            raise ValueError(f"{ctx.version.signature}: no value of '{name}' among {list(values)} is allowed")
        if not attr.required and attr.default in choices and draw(st.booleans()):
            return OMIT
        return draw(st.sampled_from(choices))

    return draw_value
