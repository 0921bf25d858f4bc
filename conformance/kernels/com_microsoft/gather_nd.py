"""com.microsoft GatherND: ai.onnx GatherND of opset 11 (no batch_dims), which onnxruntime's kernel also runs with
`indices.shape[-1] == 0` (each empty index tuple picks all of data)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import checked_indices
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "GatherND", since=1)
def gather_nd(data: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, ...]:
    if data.ndim < 1 or indices.ndim < 1:
        raise ValueError(f"GatherND: data {list(data.shape)} and indices {list(indices.shape)} must have rank >= 1")
    k = indices.shape[-1]
    if k > data.ndim:
        raise ValueError(f"GatherND: indices.shape[-1] = {k} exceeds rank(data) = {data.ndim}")
    lead, rest = indices.shape[:-1], data.shape[k:]
    idx = checked_indices("GatherND", indices, np.asarray(data.shape[:k], dtype=np.int64), negative=True)
    if k == 0:  # every index tuple is empty and picks the whole of data
        return (np.ascontiguousarray(np.broadcast_to(data, lead + rest)),)
    tuples = idx.reshape(-1, k)
    picked = data[tuple(tuples[:, j] for j in range(k))]
    return (np.ascontiguousarray(picked).reshape(lead + rest),)
