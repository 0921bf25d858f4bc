"""Expanddims (tengine, op id 60): inserts a dimension of size 1 at `axis`."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Expanddims", since=1)
def expanddims(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    if not 0 <= axis <= x.ndim:
        raise ValueError(f"Expanddims: axis {axis} is outside [0, {x.ndim}]")
    return (np.expand_dims(x, axis).copy(),)
