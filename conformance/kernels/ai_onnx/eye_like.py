"""EyeLike: ones on diagonal `k` of a matrix of the input's shape, in `dtype` (the input's type when absent)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import numpy_dtype_of_code, numpy_element_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "EyeLike", since=9, exact_types=True)  # the input gives its shape and type, not values
def eye_like(input: np.ndarray, *, dtype: int | None, k: int) -> tuple[np.ndarray, ...]:
    if input.ndim != 2:
        raise ValueError(f"EyeLike: the input must be 2-D, it has shape {list(input.shape)}")
    target = numpy_element_dtype("EyeLike", input.dtype) if dtype is None else numpy_dtype_of_code("EyeLike", dtype)
    rows, cols = input.shape
    return (np.eye(rows, cols, k, dtype=target),)
