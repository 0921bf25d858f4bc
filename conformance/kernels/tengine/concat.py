"""Concat (tengine, op id 3): joins the inputs along `axis` (negative counts from the end)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Concat", since=1)
def concat(*inputs: np.ndarray, axis: int) -> tuple[np.ndarray, ...]:
    if not inputs:
        raise ValueError("Concat: needs at least one input")
    rank = inputs[0].ndim
    a = axis + rank if axis < 0 else axis
    if not 0 <= a < rank:
        raise ValueError(f"Concat: axis {axis} is outside the rank {rank}")
    for t in inputs[1:]:
        if t.ndim != rank or t.shape[:a] + t.shape[a + 1:] != inputs[0].shape[:a] + inputs[0].shape[a + 1:]:
            raise ValueError(f"Concat: {t.shape} does not match {inputs[0].shape} outside axis {a}")
    return (np.concatenate(inputs, axis=a),)
