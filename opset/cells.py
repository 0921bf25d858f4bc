"""A version's conformance cells: the (version, type) pairs its tests are reported by.

A cell is named by a type of the version's primary parameter (its first typed input, else its first
output): a tensor type by its element type (`float`), a container by its canonical type text
(`seq(tensor(float))`, `optional(tensor(int64))`, `map(int64,tensor(float))`). Every element type numpy or
ml_dtypes holds (bfloat16, the float8 and float4 formats, int4 ...; see conformance.element_types) is drawn,
and `string` as object arrays of Python str, in tensors and in containers; one the strategies cannot draw
would be a cell reported unsupported, never silently dropped. Both the test generator (gen) and the runner
(conformance) read cells from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from opset.dtypes import (
    ELEMENT_TYPES,
    canonical_type,
    element_of_numpy,
    is_valid_type,
    map_parts,
    tensor_element,
    type_elements,
    type_kind,
)
from opset.model import Example, OpVersion, Param

DRAWN_ELEMENTS: tuple[str, ...] = (
    "float16", "float", "double", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
    "complex64", "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
    "float8e8m0", "float4e2m1", "float6e2m3", "float6e3m2", "int4", "uint4", "int2", "uint2",
    "string")
NUMPY_ELEMENTS = DRAWN_ELEMENTS  # the name of the list before ml_dtypes; kept until every user says DRAWN_ELEMENTS


def allowed_elements(version: OpVersion, type_text: str) -> list[str]:
    """Element names a parameter type allows: its type variable's list, or the one fixed type."""
    constraint = version.type_variable(type_text)
    types = constraint.types if constraint is not None else (type_text,)
    elements = [tensor_element(t) for t in types]
    return [e for e in elements if e is not None]


MAP_KEYS: tuple[str, ...] = ("int64", "string")  # a map's keys are Python ints or strs: always drawable


def cell_name(type_text: str) -> str:
    """The cell a type is reported by: a tensor type's element (`float`), else the canonical type text."""
    element = tensor_element(type_text)
    return element if element is not None else canonical_type(type_text)


def cell_type(cell: str) -> str:
    """The type a cell name stands for: `float` -> `tensor(float)`; a container's text stays."""
    return f"tensor({cell})" if cell in ELEMENT_TYPES else canonical_type(cell)


def allowed_cells(version: OpVersion, type_text: str) -> list[str]:
    """Cell names of every type a parameter type allows (its type variable's list, or the one fixed type)."""
    constraint = version.type_variable(type_text)
    types = constraint.types if constraint is not None else (type_text,)
    return [cell_name(t) for t in types if is_valid_type(t)]


def drawable_cell(cell: str) -> bool:
    """Can the strategies draw values of this cell's type? Every element numpy holds (a map's key is an int
    or a str); sparse tensors never."""
    text = cell_type(cell)
    kind = type_kind(text)
    if kind == "sparse_tensor" or kind is None:
        return False
    if kind == "map":
        parts = map_parts(text)
        return parts is not None and parts[0] in MAP_KEYS and drawable_cell(cell_name(parts[1]))
    if kind in ("seq", "optional"):
        inner = text[text.index("(") + 1:-1]
        return drawable_cell(cell_name(inner))
    return all(e in DRAWN_ELEMENTS for e in type_elements(text))


def primary_param(version: OpVersion) -> Param | None:
    """The parameter whose type names a cell: the first typed input, else the first output."""
    for param in (*version.inputs, *version.outputs):
        if allowed_cells(version, param.type):
            return param
    return None


def cell_dtypes(version: OpVersion) -> tuple[list[str], list[str]]:
    """(drawable, unsupported) cells of the version's primary parameter, in schema order."""
    param = primary_param(version)
    if param is None:
        return [], []
    cells = allowed_cells(version, param.type)
    drawable = [c for c in cells if drawable_cell(c)]
    return drawable, [c for c in cells if not drawable_cell(c)]


def example_dtype(version: OpVersion, example: Example) -> str:
    """The cell an example belongs to: its primary input's element type, else its first stated output's."""
    primary = primary_param(version)
    literal = _first_literal(example.inputs.get(primary.name)) if primary is not None else None
    if literal is None:
        stated = (_first_literal(example.outputs.get(p.name)) for p in version.outputs)
        literal = next((x for x in stated if x is not None), None)
    if literal is None:
        return "float"
    if literal["dtype"] == "string":
        return "string"
    import ml_dtypes  # noqa: F401  (registers int4, float8e4m3fn ... as numpy dtype names, which examples state)

    name = np.dtype(str(literal["dtype"])).name
    return element_of_numpy(name) or name


def _first_literal(given: Any) -> Mapping[str, Any] | None:
    """A variadic parameter holds several literals (a tuple): the first names the type."""
    if isinstance(given, list | tuple):
        return given[0] if given else None
    return given if isinstance(given, Mapping) else None
