"""Element types a draw picks for a type variable the cell does not fix (`dtype_of`, `any_type` in a domain), and
how an attribute names one."""

from __future__ import annotations

from opset.cells import DRAWN_ELEMENTS, allowed_elements
from opset.dtypes import ELEMENT_TYPES
from opset.model import OpVersion


def drawable_types(version: OpVersion, type_variable: str) -> list[str]:
    """The element types `type_variable` allows that the strategies draw, in the constraint's order."""
    found = [e for e in allowed_elements(version, type_variable) if e in DRAWN_ELEMENTS]
    if not found:
        raise ValueError(f"{version.signature}: type variable {type_variable} allows no element type a draw can make")
    return found


def code_or_name(element: str, attribute_type: str) -> int | str:
    """How an attribute names an element type: its TensorProto DataType number, or (a string attribute, Cast 1's
    `to`) its DataType name."""
    if attribute_type == "string":
        return element.upper()
    return int(ELEMENT_TYPES[element][0])
