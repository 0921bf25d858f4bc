"""ScatterElements: a copy of data where each updates[p] lands at p with its `axis` coordinate replaced by
indices[p]; `reduction` (opset 16: none/add/mul, 18: also max/min) combines instead of replacing. Of several
updates of one element without reduction the last in row-major order wins (onnx leaves the order open)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import scatter_elements_into
from conformance.kernels.registry import kernel

OP = "ScatterElements"


@kernel("ai.onnx", "ScatterElements", since=11, until=15)
def scatter_elements_v11(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, *,
                         axis: int) -> tuple[np.ndarray, ...]:
    # no reduction before opset 16: every update replaces
    return (scatter_elements_into(OP, data, indices, updates, axis, "none", negative=True),)


@kernel("ai.onnx", "ScatterElements", since=16)
def scatter_elements(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, *, axis: int,
                     reduction: str) -> tuple[np.ndarray, ...]:
    return (scatter_elements_into(OP, data, indices, updates, axis, reduction, negative=True),)
