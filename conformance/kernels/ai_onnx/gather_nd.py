"""GatherND: each k-tuple of `indices` (its last axis, k = indices.shape[-1]) picks an element or slice of
`data` after the first `batch_dims` axes, which data and indices share (batch_dims from opset 12)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import checked_indices
from conformance.kernels.registry import kernel


def _gather_nd(data: np.ndarray, indices: np.ndarray, b: int) -> np.ndarray:
    shape, ishape = data.shape, np.shape(indices)
    r, q = len(shape), len(ishape)
    if r < 1 or q < 1:
        raise ValueError(f"GatherND: data {shape} and indices {ishape} must have rank >= 1")
    if not 0 <= b < min(q, r):
        raise ValueError(f"GatherND: batch_dims {b} must lie in [0, min(q, r) - 1] = [0, {min(q, r) - 1}]")
    if tuple(ishape[:b]) != tuple(shape[:b]):
        raise ValueError(f"GatherND: the first {b} dims of indices {ishape} and data {shape} differ")
    k = ishape[-1]
    if not 1 <= k <= r - b:
        raise ValueError(f"GatherND: indices.shape[-1] = {k} must lie in [1, r - batch_dims] = [1, {r - b}]")
    idx = checked_indices("GatherND", indices, np.asarray(shape[b:b + k]), negative=True)
    batch = int(np.prod(shape[:b], dtype=np.int64))
    tuples = int(np.prod(ishape[b:-1], dtype=np.int64))
    flat = data.reshape((batch, *shape[b:]))
    idx = idx.reshape(batch, tuples, k)
    picked = flat[(np.arange(batch)[:, None], *(idx[..., j] for j in range(k)))]  # (batch, tuples, *rest)
    return np.asarray(picked).reshape(tuple(ishape[:-1]) + tuple(shape[b + k:]))


@kernel("ai.onnx", "GatherND", since=11, until=11)
def gather_nd_v11(data: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, ...]:
    return (_gather_nd(data, indices, 0),)  # no batch dims before opset 12


@kernel("ai.onnx", "GatherND", since=12)
def gather_nd(data: np.ndarray, indices: np.ndarray, *, batch_dims: int) -> tuple[np.ndarray, ...]:
    return (_gather_nd(data, indices, batch_dims),)
