"""Addn (tengine, op id 49): the elementwise sum of its inputs, which share one shape."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Addn", since=1)
def addn(*inputs: np.ndarray, axis: int) -> tuple[np.ndarray, ...]:
    # axis is stored in the file but Tengine's kernel never reads it.
    if not inputs:
        raise ValueError("Addn: needs at least one input")
    shapes = {a.shape for a in inputs}
    if len(shapes) != 1:
        raise ValueError(f"Addn: inputs must share one shape, got {sorted(shapes)}")
    total = inputs[0].copy()
    for a in inputs[1:]:
        total = total + a
    return (total.astype(inputs[0].dtype, copy=False),)
