"""Scatter (tengine, op id 93): ONNX ScatterElements along one axis (ONNX scatters only)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Scatter", since=1)
def scatter(data: np.ndarray, indices: np.ndarray, updates: np.ndarray, *, axis: int,
            is_onnx: int) -> tuple[np.ndarray, ...]:
    if not is_onnx:
        raise ValueError("Scatter: Tengine only runs ONNX scatters (is_onnx 1)")
    if not 1 <= data.ndim <= 4 or not -data.ndim <= axis < data.ndim:
        raise ValueError(f"Scatter: data {data.shape} needs rank 1 to 4 and axis {axis} in [-rank, rank)")
    ax = axis + data.ndim if axis < 0 else axis
    if indices.shape != updates.shape or indices.ndim != data.ndim:
        raise ValueError(f"Scatter: indices {indices.shape} and updates {updates.shape} must match data's rank")
    if np.any(indices < 0) or np.any(indices >= data.shape[ax]):
        raise ValueError(f"Scatter: indices must lie in [0, {data.shape[ax]})")
    if any(i > d for i, d in zip(indices.shape, data.shape, strict=True)):
        raise ValueError(f"Scatter: indices {indices.shape} do not fit inside data {data.shape}")
    out = data.copy()
    # every position of indices addresses data at the same coordinates, the axis one replaced by the index
    target: list[np.ndarray] = list(np.indices(indices.shape, sparse=True))
    target[ax] = indices.astype(np.int64)
    # numpy assigns in C order, so a repeated target keeps the last update, as Tengine's loop does
    out[tuple(target)] = updates.astype(data.dtype, copy=False)
    return (out,)
