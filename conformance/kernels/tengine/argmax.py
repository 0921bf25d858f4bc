"""ArgMax (tengine, op id 42): the index of the first largest value along `axis`, as int32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def reduce_index(x: np.ndarray, axis: int, keepdims: int, pick: str, op: str) -> np.ndarray:
    """Shared by ArgMax and ArgMin: np.argmax/argmin return the first extreme, as Tengine's strict compare."""
    if not 0 <= axis < x.ndim:
        raise ValueError(f"{op}: axis {axis} is outside [0, {x.ndim})")
    index = np.argmax(x, axis=axis) if pick == "max" else np.argmin(x, axis=axis)
    if keepdims:
        index = np.expand_dims(index, axis)
    converted: np.ndarray = index.astype(np.int32)
    return converted


@kernel("tengine", "ArgMax", since=1)
def argmax(x: np.ndarray, *, axis: int, keepdims: int) -> tuple[np.ndarray, ...]:
    return (reduce_index(x, axis, keepdims, "max", "ArgMax"),)
