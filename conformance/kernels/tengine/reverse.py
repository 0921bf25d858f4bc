"""Reverse (tengine, op id 81): reverses a 4-D tensor along the axis given by the first value of `axis`."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Reverse", since=1)
def reverse(x: np.ndarray, axis: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"Reverse: input must have rank 4, got shape {x.shape}")
    if axis.size < 1:
        raise ValueError("Reverse: axis is empty")
    a = int(axis.reshape(-1)[0])
    if not -4 <= a < 4:
        raise ValueError(f"Reverse: axis {a} is out of range for rank 4")
    return (np.flip(x, axis=a).copy(),)
