"""ScatterND: a copy of data where each k-tuple of `indices` (k = indices.shape[-1]) addresses an element
(k = rank) or a slice (k < rank) that the matching entry of `updates` replaces, or that `reduction`
(opset 16: none/add/mul, 18: also max/min) combines with it. Of several updates of one position without
reduction the last in row-major order wins (onnx leaves the order open)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import checked_indices, write_updates
from conformance.kernels.registry import kernel

OP = "ScatterND"


def _scatter_nd(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, reduction: str) -> np.ndarray:
    shape, ishape = data.shape, np.shape(indices)
    r, q = len(shape), len(ishape)
    if r < 1 or q < 1:
        raise ValueError(f"{OP}: data {shape} and indices {ishape} must have rank >= 1")
    k = ishape[-1]
    if k > r:
        raise ValueError(f"{OP}: indices.shape[-1] = {k} exceeds the rank {r} of data")
    want = tuple(ishape[:-1]) + tuple(shape[k:])
    if np.shape(updates) != want:
        raise ValueError(f"{OP}: updates {np.shape(updates)} must have the shape indices.shape[:-1] + "
                         f"data.shape[k:] = {want}")
    idx = checked_indices(OP, indices, np.asarray(shape[:k], dtype=np.int64), negative=True)
    count = int(np.prod(ishape[:-1], dtype=np.int64))
    tuples = idx.reshape(count, k)
    positions = (np.ravel_multi_index(tuple(tuples.T), shape[:k]) if k else np.zeros(count, dtype=np.int64))
    out = np.array(data, copy=True, order="C")
    slices = out.reshape((int(np.prod(shape[:k], dtype=np.int64)), *shape[k:]))  # a view: one row per k-tuple
    write_updates(OP, slices, positions, np.asarray(updates).reshape((count, *shape[k:])), reduction)
    return out


@kernel("ai.onnx", "ScatterND", since=11, until=15)
def scatter_nd_v11(data: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> tuple[np.ndarray, ...]:
    return (_scatter_nd(data, indices, updates, "none"),)  # no reduction before opset 16


@kernel("ai.onnx", "ScatterND", since=16)
def scatter_nd(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, *,
               reduction: str) -> tuple[np.ndarray, ...]:
    return (_scatter_nd(data, indices, updates, reduction),)
