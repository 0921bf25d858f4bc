"""StringConcat: X[i] + Y[i] elementwise, with numpy broadcasting (UTF-8 text is concatenated as text)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import as_array_of
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "StringConcat", since=20)
def string_concat(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.dtype.kind != "O" or y.dtype.kind != "O":
        raise ValueError(f"StringConcat: X and Y must be string tensors, got {x.dtype} and {y.dtype}")
    try:
        joined = np.add(x, y)  # object arrays: Python's str + str per element pair
    except ValueError as e:
        raise ValueError(f"StringConcat: shapes {x.shape} and {y.shape} do not broadcast") from e
    return (as_array_of(joined, np.dtype(object)),)
