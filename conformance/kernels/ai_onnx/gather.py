"""Gather: numpy's take along `axis`; indices in [0, s-1] at opset 1, in [-s, s-1] (negative from the end)
from opset 11."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import as_array_of
from conformance.kernels.ai_onnx._indexing import checked_axis, checked_indices
from conformance.kernels.registry import kernel


def _gather(data: np.ndarray, indices: np.ndarray, axis: int, *, negative: bool) -> np.ndarray:
    if data.ndim < 1:
        raise ValueError("Gather: data must have rank >= 1")
    ax = checked_axis("Gather", axis, data.ndim)
    idx = checked_indices("Gather", indices, data.shape[ax], negative=negative)
    return as_array_of(np.take(data, idx, axis=ax), data.dtype)  # a string scalar stays a 0-d string tensor


@kernel("ai.onnx", "Gather", since=1, until=10)
def gather_v1(data: np.ndarray, indices: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (_gather(data, indices, axis, negative=False),)


@kernel("ai.onnx", "Gather", since=11)
def gather(data: np.ndarray, indices: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (_gather(data, indices, axis, negative=True),)
