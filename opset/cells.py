"""A version's conformance cells: the (version, element type) pairs its tests are reported by.

A cell is named by the element type of the version's primary parameter (its first typed input,
else its first output). Every element type numpy or ml_dtypes holds (bfloat16, the float8 and float4
formats, int4 ...; see conformance.element_types) is drawn; one the strategies cannot draw would be
a cell reported unsupported, never silently dropped.
Both the test generator (gen) and the runner (conformance) read cells from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from opset.dtypes import element_of_numpy, tensor_element
from opset.model import Example, OpVersion, Param

DRAWN_ELEMENTS: tuple[str, ...] = (
    "float16", "float", "double", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
    "complex64", "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
    "float8e8m0", "float4e2m1", "float6e2m3", "float6e3m2", "int4", "uint4", "int2", "uint2")
NUMPY_ELEMENTS = DRAWN_ELEMENTS  # the name of the list before ml_dtypes; kept until every user says DRAWN_ELEMENTS


def allowed_elements(version: OpVersion, type_text: str) -> list[str]:
    """Element names a parameter type allows: its type variable's list, or the one fixed type."""
    constraint = version.type_variable(type_text)
    types = constraint.types if constraint is not None else (type_text,)
    elements = [tensor_element(t) for t in types]
    return [e for e in elements if e is not None]


def primary_param(version: OpVersion) -> Param | None:
    """The parameter whose element type names a cell: the first typed input, else the first output."""
    for param in (*version.inputs, *version.outputs):
        if allowed_elements(version, param.type):
            return param
    return None


def cell_dtypes(version: OpVersion) -> tuple[list[str], list[str]]:
    """(drawable, unsupported) element types of the version's primary parameter, in schema order."""
    param = primary_param(version)
    if param is None:
        return [], []
    elements = allowed_elements(version, param.type)
    drawable = [e for e in elements if e in DRAWN_ELEMENTS]
    return drawable, [e for e in elements if e not in DRAWN_ELEMENTS]


def example_dtype(version: OpVersion, example: Example) -> str:
    """The cell an example belongs to: its primary input's element type, else its first stated output's."""
    primary = primary_param(version)
    literal = _first_literal(example.inputs.get(primary.name)) if primary is not None else None
    if literal is None:
        stated = (_first_literal(example.outputs.get(p.name)) for p in version.outputs)
        literal = next((x for x in stated if x is not None), None)
    if literal is None:
        return "float"
    name = np.dtype(str(literal["dtype"])).name
    return element_of_numpy(name) or name


def _first_literal(given: Any) -> Mapping[str, Any] | None:
    """A variadic parameter holds several literals (a tuple): the first names the type."""
    if isinstance(given, list | tuple):
        return given[0] if given else None
    return given if isinstance(given, Mapping) else None
