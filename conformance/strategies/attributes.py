"""Attribute values from their spec: type, allowed values, range, length formula.

Magnitudes stay small (a window of a few values above the lower bound) so that drawn kernels, strides
and pads fit the small drawn shapes most of the time; what still does not fit is redrawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.memo import BOOLEANS, integers
from opset.attr_types import ATTR_TYPES
from opset.formula import FormulaError, Undecided
from opset.model import Attribute

DrawFn = Callable[[st.SearchStrategy[Any]], Any]
OMIT = object()  # the attribute is left off the node (its default, if any, applies)
# types without a literal form, except tensor (drawn as a small array)
UNDRAWABLE_TYPES = frozenset(t.name for t in ATTR_TYPES.values() if not t.literal) - {"tensor"}


def as_node_value(value: Any) -> Any:
    """A value as a node carries it: ONNX stores float attributes in 32 bits, so round floats to float32."""
    if isinstance(value, float):
        return float(np.float32(value))
    if isinstance(value, list) and value and all(isinstance(v, float) for v in value):
        return [float(np.float32(v)) for v in value]
    return value


def node_values(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """Complete attributes with every float as a node holds it (schema defaults included)."""
    return {name: as_node_value(value) for name, value in attributes.items()}


def int_window(attr: Attribute, *, width: int = 3) -> tuple[int, int]:
    """A small inclusive interval inside the attribute's range."""
    if width < 0:
        raise ValueError(f"width={width} must be >= 0")
    lo, hi = attr.range if attr.range is not None else (None, None)
    if lo is None and hi is None:
        centre = int(attr.default) if isinstance(attr.default, int) else 0
        return centre - 1, centre + width - 1
    if lo is None:
        return int(hi) - width, int(hi)  # type: ignore[arg-type]
    top = int(lo) + width
    return int(lo), top if hi is None else min(int(hi), top)


def float_values(attr: Attribute) -> st.SearchStrategy[float]:
    """Floats on an eighth grid inside the range; without a range, around the default keeping its sign."""
    if attr.range is not None:
        lo = -2.0 if attr.range[0] is None else float(attr.range[0])
        hi = (lo + 4.0) if attr.range[1] is None else float(attr.range[1])
        return integers(int(lo * 8), int(hi * 8)).map(lambda k: k / 8)
    if isinstance(attr.default, int | float) and attr.default != 0:
        d = float(attr.default)
        return st.sampled_from([d, d * 2, d / 2])
    return integers(-16, 16).map(lambda k: k / 8)


def scalar_values(attr: Attribute, element_type: str) -> st.SearchStrategy[Any]:
    if attr.allowed is not None:
        return st.sampled_from(list(attr.allowed))
    if element_type == "int":
        if attr.range is None and attr.default in (0, 1):
            return integers(0, 1)  # an unbounded int defaulting to 0 or 1 is a flag
        lo, hi = int_window(attr)
        return integers(lo, hi)
    if element_type == "float":
        return float_values(attr)
    if element_type == "string":
        return st.just(attr.default) if isinstance(attr.default, str) else st.just("")
    raise ValueError(f"attribute '{attr.name}' of type {attr.type} has no scalar strategy")


def list_length(attr: Attribute, env: Mapping[str, Any]) -> int | None:
    """The length the `length` formula demands, or None when there is none or it cannot be evaluated."""
    if attr.length is None:
        return None
    try:
        value = attr.length.evaluate(env)
    except (FormulaError, Undecided, KeyError):
        return None
    return value if isinstance(value, int) and value >= 0 else None


def draw_attribute(draw: DrawFn, attr: Attribute, env: Mapping[str, Any], *, default_rank: int) -> Any:
    """A value for `attr`, or OMIT. Required attributes are always drawn."""
    if attr.type in UNDRAWABLE_TYPES or (attr.hint and not attr.required):
        return OMIT  # a hint changes no result: a node without it is the case worth drawing
    if not attr.required and draw(BOOLEANS):
        return OMIT
    if attr.type in ("int", "float", "string"):
        return draw(scalar_values(attr, attr.type))
    if attr.type in ("ints", "floats", "strings"):
        length = list_length(attr, env)
        if length is None:
            length = draw(integers(1, max(1, default_rank)))
        element = draw_element_strategy(attr)
        return [draw(element) for _ in range(length)]
    return OMIT  # tensor attributes are drawn by the case builder, which knows the element type


def draw_element_strategy(attr: Attribute) -> st.SearchStrategy[Any]:
    return scalar_values(attr, attr.type[:-1])
