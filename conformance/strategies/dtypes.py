"""Element types a case can be drawn in: those numpy and the reference kernels represent."""

from __future__ import annotations

import numpy as np

from opset.cells import NUMPY_ELEMENTS, allowed_elements, cell_dtypes, primary_param
from opset.dtypes import numpy_name

# Element types the strategies draw; every other one (bfloat16, float8, strings, complex ...) is
# reported as unsupported by the reference rather than silently skipped (see opset.cells).
DRAWABLE_ELEMENTS = NUMPY_ELEMENTS
__all__ = ["DRAWABLE_ELEMENTS", "FLOAT_ELEMENTS", "allowed_elements", "cell_dtypes", "element_of", "numpy_dtype",
           "primary_param"]
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
