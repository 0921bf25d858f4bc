"""Element-type helpers the hints share: a type's DataType number and the targets a type variable allows.

Cast, CastLike and BitCast draw their targets from their YAML (`dtype_of`, `any_type`, `converts_to`).
"""

from __future__ import annotations

from conformance.strategies.context import DrawContext
from opset.cells import NUMPY_ELEMENTS, allowed_elements
from opset.dtypes import ELEMENT_TYPES


def code_of(element: str) -> int:
    """The TensorProto DataType number of an element type."""
    return ELEMENT_TYPES[element][0]


def drawable_targets(ctx: DrawContext, type_var: str) -> list[str]:
    """The element types a type variable allows that the strategies draw."""
    return [e for e in allowed_elements(ctx.version, type_var) if e in NUMPY_ELEMENTS]
