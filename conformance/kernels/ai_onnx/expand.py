"""Expand: the input broadcast with `shape` (numpy's rule both ways, so the output may exceed `shape`)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Expand", since=8)
def expand(input: np.ndarray, shape: np.ndarray) -> tuple[np.ndarray, ...]:
    if shape.ndim != 1:
        raise ValueError(f"Expand: shape must be 1-D, it has shape {list(shape.shape)}")
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(f"Expand: negative dim in shape {list(dims)}")
    try:
        out = np.broadcast_shapes(input.shape, dims)
    except ValueError as e:
        raise ValueError(f"Expand: input {list(input.shape)} and shape {list(dims)} do not broadcast") from e
    return (np.broadcast_to(input, out).copy(),)
