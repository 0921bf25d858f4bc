"""Element types a case can be drawn in: those numpy and the reference kernels represent."""

from __future__ import annotations

import numpy as np

from opset.dtypes import numpy_name, tensor_element
from opset.model import OpVersion, Param

# Element types the strategies draw; every other one (bfloat16, float8, strings, complex ...) is
# reported as unsupported by the reference rather than silently skipped.
DRAWABLE_ELEMENTS: tuple[str, ...] = ("float16", "float", "double", "int8", "int16", "int32", "int64",
                                      "uint8", "uint16", "uint32", "uint64", "bool")
FLOAT_ELEMENTS = frozenset({"float16", "float", "double"})


def numpy_dtype(element: str) -> np.dtype:
    name = numpy_name(element)
    if name is None or element not in DRAWABLE_ELEMENTS:
        raise ValueError(f"element type {element} has no numpy dtype the strategies draw")
    return np.dtype(name)


def element_of(dtype: np.dtype) -> str:
    """numpy dtype -> ONNX element name (`float32` -> `float`)."""
    for element in DRAWABLE_ELEMENTS:
        if np.dtype(numpy_name(element)) == dtype:
            return element
    return str(dtype)


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
    drawable = [e for e in elements if e in DRAWABLE_ELEMENTS]
    return drawable, [e for e in elements if e not in DRAWABLE_ELEMENTS]
