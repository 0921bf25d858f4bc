"""Element types a case can be drawn in: `opset.cells.DRAWN_ELEMENTS`, as numpy dtypes (conformance.element_types)."""

from __future__ import annotations

import numpy as np

from conformance.element_types import FLOATS
from conformance.element_types import element_of as _element_of
from conformance.element_types import numpy_dtype as _numpy_dtype
from opset.cells import DRAWN_ELEMENTS

FLOAT_ELEMENTS = FLOATS


def numpy_dtype(element: str) -> np.dtype:
    if element not in DRAWN_ELEMENTS:
        raise ValueError(f"element type {element} has no dtype the strategies draw")
    return _numpy_dtype(element)


def element_of(dtype: np.dtype) -> str:
    """numpy dtype -> ONNX element name (`float32` -> `float`)."""
    return _element_of(dtype) or str(dtype)
