"""TopK: the k largest (or, from version 11, smallest) elements along `axis` and their int64 indices.

Values come in order (descending for the largest, ascending for the smallest) and equal values by ascending
index, the tie rule onnx states. With sorted=0 onnx leaves the order open; this kernel keeps the sorted one.
k is an attribute in version 1 and the single value of input K from version 10.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _top_k(x: np.ndarray, k: int, axis: int, largest: int) -> tuple[np.ndarray, np.ndarray]:
    (a,) = normalize_axes("TopK", [axis], x.ndim)
    n = x.shape[a]
    if not 0 <= k <= n:
        raise ValueError(f"TopK: k = {k} must lie in [0, {n}] (axis {axis} of shape {x.shape})")
    if largest:
        # a stable ascending sort of the reversed axis, read backwards: values descending, ties by ascending index
        order = n - 1 - np.flip(np.argsort(np.flip(x, axis=a), axis=a, kind="stable"), axis=a)
    else:
        order = np.argsort(x, axis=a, kind="stable")
    indices = np.take(order, np.arange(k), axis=a)
    return np.take_along_axis(x, indices, axis=a), indices.astype(np.int64)


def _k_of(K: np.ndarray) -> int:
    values = np.asarray(K).reshape(-1)
    if values.size != 1:
        raise ValueError(f"TopK: K must hold exactly one value, not {values.size}")
    return int(values[0])


@kernel("ai.onnx", "TopK", since=1, until=9)
def top_k_v1(X: np.ndarray, *, axis: int, k: int) -> tuple[np.ndarray, ...]:
    return _top_k(X, k, axis, 1)


@kernel("ai.onnx", "TopK", since=10, until=10)
def top_k_v10(X: np.ndarray, K: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return _top_k(X, _k_of(K), axis, 1)


@kernel("ai.onnx", "TopK", since=11)
def top_k(X: np.ndarray, K: np.ndarray, *, axis: int, largest: int, sorted: int) -> tuple[np.ndarray, ...]:
    del sorted  # sorted=0 leaves the order to the implementation: the sorted order is one valid answer
    return _top_k(X, _k_of(K), axis, largest)
