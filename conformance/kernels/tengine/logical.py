"""Logical (tengine, op id 75): elementwise AND (type 0) or OR (type 1) of two tensors, as 0/1 values."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Logical", since=1)
def logical(a: np.ndarray, b: np.ndarray, *, type: int) -> tuple[np.ndarray, ...]:
    if type not in (0, 1):
        raise ValueError(f"Logical: type must be 0 (and) or 1 (or), got {type}")
    # The output takes the shape of the input with more elements (the second one on a tie).
    shape = a.shape if a.size > b.size else b.shape
    if a.size != b.size and a.size != 1 and b.size != 1:
        raise ValueError(f"Logical: inputs {a.shape} and {b.shape} need equal element counts or a single element")
    op = np.logical_and if type == 0 else np.logical_or
    y = op(a.reshape(-1) != 0, b.reshape(-1) != 0).reshape(shape)
    return (y.astype(a.dtype),)
