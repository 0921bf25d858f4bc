"""Element types a draw picks for a type variable the cell does not fix (`dtype_of`, `any_type` in a domain), and
how an attribute names one."""

from __future__ import annotations

from typing import Any

from opset.cells import DRAWN_ELEMENTS, allowed_elements, cell_type
from opset.dtypes import ELEMENT_TYPES, inner_type, tensor_element, type_kind
from opset.model import OpVersion


def drawable_types(version: OpVersion, type_variable: str) -> list[str]:
    """The element types `type_variable` allows that the strategies draw, in the constraint's order."""
    found = [e for e in allowed_elements(version, type_variable) if e in DRAWN_ELEMENTS]
    if not found:
        raise ValueError(f"{version.signature}: type variable {type_variable} allows no element type a draw can make")
    return found


def code_or_name(cell: str, attribute_type: str) -> Any:
    """How an attribute names a cell's type: its (tensors') element type's TensorProto DataType number, or (a string
    attribute, Cast 1's `to`) its DataType name; a type_proto attribute (Optional's `type`) the whole type."""
    if attribute_type == "type_proto":
        from opset.validate.facts import type_proto

        return type_proto(cell_type(cell))
    element = held_element(cell)
    if attribute_type == "string":
        return element.upper()
    return int(ELEMENT_TYPES[element][0])


def held_element(cell: str) -> str:
    """The element type of a cell: a tensor cell's own, a container's tensors' (`seq(tensor(int32))`: int32)."""
    text = cell_type(cell)
    while type_kind(text) != "tensor":
        inner = inner_type(text)
        if inner is None:
            raise ValueError(f"{cell} holds no tensors")
        text = inner
    element = tensor_element(text)
    assert element is not None
    return element
