"""Scatter (deprecated at opset 11 for ScatterElements, which computes the same): updates[p] lands at p with
its `axis` coordinate replaced by indices[p]; indices in [0, s-1] at opset 9, in [-s, s-1] at opset 11."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import scatter_elements_into
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Scatter", since=9, until=10)
def scatter_v9(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (scatter_elements_into("Scatter", data, indices, updates, axis, "none", negative=False),)


@kernel("ai.onnx", "Scatter", since=11)
def scatter(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (scatter_elements_into("Scatter", data, indices, updates, axis, "none", negative=True),)
