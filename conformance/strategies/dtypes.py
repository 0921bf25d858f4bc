"""Element types a case can be drawn in: those numpy and the reference kernels represent."""

from __future__ import annotations

import numpy as np

from opset.cells import NUMPY_ELEMENTS
from opset.dtypes import numpy_name

# The strategies draw the element types numpy holds (opset.cells); every other one (bfloat16, float8,
# strings, complex ...) is reported as unsupported by the reference rather than silently skipped.
FLOAT_ELEMENTS = frozenset({"float16", "float", "double"})


def numpy_dtype(element: str) -> np.dtype:
    if element == "string":
        return np.dtype(object)  # a string tensor is an object array of Python str
    name = numpy_name(element)
    if name is None or element not in NUMPY_ELEMENTS:
        raise ValueError(f"element type {element} has no numpy dtype the strategies draw")
    return np.dtype(name)


def element_of(dtype: np.dtype) -> str:
    """numpy dtype -> ONNX element name (`float32` -> `float`, object -> `string`)."""
    if np.dtype(dtype).kind in "OUS":
        return "string"
    for element in NUMPY_ELEMENTS:
        if np.dtype(numpy_name(element)) == dtype:
            return element
    return str(dtype)
