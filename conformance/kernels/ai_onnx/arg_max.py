"""ArgMax: the index of the max along `axis`, as int64; ties go to the first occurrence, or the last one
when select_last_index is 1 (from version 12). The reduced axis keeps size 1 when keepdims is 1."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _argmax(data: np.ndarray, axis: int, keepdims: int, select_last_index: int) -> np.ndarray:
    (a,) = normalize_axes("ArgMax", [axis], data.ndim)
    if data.shape[a] == 0:
        raise ValueError(f"ArgMax: axis {axis} of shape {data.shape} is empty: there is no max")
    if select_last_index:  # the first max of the reversed axis is the last one of the axis
        index = data.shape[a] - 1 - np.argmax(np.flip(data, axis=a), axis=a, keepdims=bool(keepdims))
    else:
        index = np.argmax(data, axis=a, keepdims=bool(keepdims))
    return np.asarray(index).astype(np.int64)


@kernel("ai.onnx", "ArgMax", since=1, until=11)
def argmax_v1(data: np.ndarray, *, axis: int, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_argmax(data, axis, keepdims, 0),)


@kernel("ai.onnx", "ArgMax", since=12)
def argmax(data: np.ndarray, *, axis: int, keepdims: int, select_last_index: int) -> tuple[np.ndarray, ...]:
    return (_argmax(data, axis, keepdims, select_last_index),)
