"""Reduction (tengine, op id 45): sum, mean, max, ... over up to four axes, selected by `type`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from conformance.kernels.registry import kernel

_Reduce = Callable[[np.ndarray, tuple[int, ...]], np.ndarray]
UNSET = -2  # a dim_N of -2 names no axis

_REDUCERS: dict[int, _Reduce] = {
    0: lambda x, ax: x.sum(axis=ax),
    1: lambda x, ax: x.mean(axis=ax),
    2: lambda x, ax: np.abs(x).sum(axis=ax),
    3: lambda x, ax: np.square(x).sum(axis=ax),
    4: lambda x, ax: x.max(axis=ax),
    5: lambda x, ax: x.min(axis=ax),
    6: lambda x, ax: x.prod(axis=ax),
    7: lambda x, ax: np.abs(x).sum(axis=ax),
    8: lambda x, ax: np.sqrt(np.square(x).sum(axis=ax)),
    9: lambda x, ax: np.log(x.sum(axis=ax)),
    10: lambda x, ax: np.log(np.exp(x).sum(axis=ax)),
}


def reduced_axes(rank: int, dims: list[int]) -> list[int]:
    """The axes Tengine reduces: the dim_N that are not -2 (negative ones count from the end), else all."""
    named = [d + rank if d < 0 else d for d in dims if d != UNSET]
    if any(not 0 <= a < rank for a in named):
        raise ValueError(f"Reduction: axes {dims} are out of range for rank {rank}")
    return sorted(set(named)) if named else list(range(rank))


@kernel("tengine", "Reduction", since=1)
def reduction(x: np.ndarray, axis_tensor: np.ndarray | None, *, dim_0: int, dim_1: int, dim_2: int, dim_3: int,
              type: int, keepdim: int) -> tuple[np.ndarray, ...]:
    # axis_tensor: a TensorFlow graph's axes, which Tengine wires but never reads (the dim_N fields decide)
    if type not in _REDUCERS:
        raise ValueError(f"Reduction: type must be 0 to 10, got {type}")
    axes = reduced_axes(x.ndim, [dim_0, dim_1, dim_2, dim_3])
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = np.asarray(_REDUCERS[type](work, tuple(axes)))
    if keepdim:
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)]
    else:
        shape = [d for i, d in enumerate(x.shape) if i not in axes] or [1]
    return (y.reshape(shape).astype(x.dtype, copy=False),)
