"""Comparison (tengine, op id 78): elementwise ==, !=, >, >=, <, <= giving 1 or 0 in the input's type."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from conformance.kernels.registry import kernel

_COMPARE: dict[int, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    0: np.equal, 1: np.not_equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal}


def _align(big: np.ndarray, small: np.ndarray) -> np.ndarray:
    """`small` shaped to broadcast against `big` as Tengine does: one value, the same count, or per channel."""
    if small.size == 1:
        return small.reshape(())
    if small.size == big.size:
        return small.reshape(big.shape)
    if big.ndim >= 2 and small.size == big.shape[1]:
        return small.reshape((1, -1) + (1,) * (big.ndim - 2))
    raise ValueError(f"Comparison: {small.shape} does not broadcast against {big.shape}")


@kernel("tengine", "Comparison", since=1)
def comparison(a: np.ndarray, b: np.ndarray, *, type: int) -> tuple[np.ndarray, ...]:
    if type not in _COMPARE:
        raise ValueError(f"Comparison: unknown type {type}")
    # The output takes the shape of the input of higher rank (the first on a tie); it must be the larger one.
    big_is_a = a.ndim >= b.ndim
    big, small = (a, b) if big_is_a else (b, a)
    if big.size < small.size:
        raise ValueError(f"Comparison: the output takes the shape {big.shape}, smaller than {small.shape}")
    if big_is_a:
        result = _COMPARE[type](a, _align(a, b))
    else:
        result = _COMPARE[type](_align(b, a), b)
    return (result.astype(a.dtype),)
