"""GatherElements: output[p] = data[p with its `axis` coordinate replaced by indices[p]]; the output has the
shape of indices, which may be smaller than data on the other axes."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import checked_axis, checked_indices
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "GatherElements", since=11)
def gather_elements(data: np.ndarray, indices: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    if data.ndim < 1 or np.ndim(indices) != data.ndim:
        raise ValueError(f"GatherElements: data {data.shape} and indices {np.shape(indices)} need one rank >= 1")
    ax = checked_axis("GatherElements", axis, data.ndim)
    shape = np.shape(indices)
    if any(shape[d] > data.shape[d] for d in range(data.ndim) if d != ax):
        raise ValueError(f"GatherElements: indices {shape} exceed data {data.shape} on an axis other than {ax}")
    idx = checked_indices("GatherElements", indices, data.shape[ax], negative=True)
    # data cut to the indices' extent on every other axis, then picked along the axis
    window = tuple(slice(None) if d == ax else slice(0, shape[d]) for d in range(data.ndim))
    return (np.take_along_axis(data[window], idx, axis=ax),)
