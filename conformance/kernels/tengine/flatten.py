"""Flatten (tengine, op id 10): [N, prod(dims axis..end_axis)], a 2-D view of the input."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Flatten", since=1)
def flatten(x: np.ndarray, *, axis: int, end_axis: int) -> tuple[np.ndarray, ...]:
    if x.ndim < 1:
        raise ValueError("Flatten: input needs at least one dimension")
    inner = math.prod(x.shape[axis:end_axis + 1])
    # Tengine keeps only dim 0 and the flattened range; other dims must be 1 or elements would be lost.
    if x.shape[0] * inner != x.size:
        raise ValueError(f"Flatten: dims of {x.shape} outside 0 and [{axis}, {end_axis}] must be 1")
    return (x.reshape(x.shape[0], inner).copy(),)
