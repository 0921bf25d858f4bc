"""com.microsoft TorchEmbedding: Y = weight[indices], one row of the (N, M) table per index. padding_idx and
scale_grad_by_freq change only the gradient (training), never Y."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "TorchEmbedding"


@kernel("com.microsoft", "TorchEmbedding", since=1)
def torch_embedding(weight: np.ndarray, indices: np.ndarray, padding_idx: np.ndarray | None,
                    scale_grad_by_freq: np.ndarray | None) -> tuple[np.ndarray, ...]:
    del scale_grad_by_freq  # gradient only
    if weight.ndim != 2:
        raise ValueError(f"{OP}: weight must be 2-D, got {weight.shape}")
    n = weight.shape[0]
    if padding_idx is not None and (padding_idx.size != 1 or not -n <= int(padding_idx.reshape(-1)[0]) < n):
        raise ValueError(f"{OP}: padding_idx must be one index in [-{n}, {n})")
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        raise ValueError(f"{OP}: indices must lie in [0, {n})")
    return (weight[indices.astype(np.int64)],)
