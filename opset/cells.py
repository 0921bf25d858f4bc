"""A version's conformance cells: the (version, element type) pairs its tests are reported by.

A cell is named by the element type of the version's primary parameter (its first typed input,
else its first output). Element types numpy holds are drawn (`string` as object arrays of Python str); the
others (bfloat16, float8, complex ...) are cells reported as unsupported by numpy-based backends, never
silently dropped.
Both the test generator (gen) and the runner (conformance) read cells from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from opset.dtypes import element_of_numpy, tensor_element
from opset.model import Example, OpVersion, Param

NUMPY_ELEMENTS: tuple[str, ...] = ("float16", "float", "double", "int8", "int16", "int32", "int64",
                                   "uint8", "uint16", "uint32", "uint64", "bool", "string")


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
    drawable = [e for e in elements if e in NUMPY_ELEMENTS]
    return drawable, [e for e in elements if e not in NUMPY_ELEMENTS]


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
    name = np.dtype(str(literal["dtype"])).name
    return element_of_numpy(name) or name


def _first_literal(given: Any) -> Mapping[str, Any] | None:
    """A variadic parameter holds several literals (a tuple): the first names the type."""
    if isinstance(given, list | tuple):
        return given[0] if given else None
    return given if isinstance(given, Mapping) else None
