"""OneHot: `values[1]` where the class along the new axis equals the index, `values[0]` elsewhere.

Indices and depth of a non-integer type are cast to int64 (toward zero). An index outside [0, depth) gives an
all-off line; from opset 11 one in [-depth, -1] first counts from the back.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _one_hot(indices: np.ndarray, depth: np.ndarray, values: np.ndarray, axis: int, wrap: bool) -> np.ndarray:
    if depth.size != 1 or depth.ndim > 1:
        raise ValueError(f"OneHot: depth must be a scalar or of shape [1], it has shape {list(depth.shape)}")
    if values.shape != (2,):
        raise ValueError(f"OneHot: values must have shape [2], it has shape {list(values.shape)}")
    classes = int(np.trunc(depth.reshape(-1)[0]))
    if classes < 0:
        raise ValueError(f"OneHot: depth is {classes}, it must be >= 0")
    rank = indices.ndim
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"OneHot: axis {axis} is out of range for indices of rank {rank}")
    at = axis + rank + 1 if axis < 0 else axis
    with np.errstate(invalid="ignore"):
        index = np.trunc(indices).astype(np.int64) if indices.dtype.kind == "f" else indices.astype(np.int64)
    if wrap:
        index = np.where(index < 0, index + classes, index)
    lines = np.arange(classes, dtype=np.int64).reshape((classes,) + (1,) * (rank - at))
    hot = np.expand_dims(index, at) == lines  # an index outside [0, depth) matches no class
    return np.asarray(np.where(hot, values[1], values[0]).astype(values.dtype))


@kernel("ai.onnx", "OneHot", since=9, until=10)
def one_hot_9(indices: np.ndarray, depth: np.ndarray, values: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (_one_hot(indices, depth, values, axis, wrap=False),)


@kernel("ai.onnx", "OneHot", since=11)
def one_hot(indices: np.ndarray, depth: np.ndarray, values: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (_one_hot(indices, depth, values, axis, wrap=True),)
