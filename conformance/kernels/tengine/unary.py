"""Unary (tengine, op id 59): the elementwise function selected by `type` (0 abs ... 16 tanh)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from conformance.kernels.registry import kernel

_FUNCTIONS: dict[int, Callable[[np.ndarray], np.ndarray]] = {
    0: np.abs,
    1: np.negative,
    2: np.floor,
    3: np.ceil,
    4: np.square,
    5: np.sqrt,
    6: lambda a: 1.0 / np.sqrt(a),
    7: np.exp,
    8: np.log,
    9: np.sin,
    10: np.cos,
    11: np.tan,
    12: np.arcsin,
    13: np.arccos,
    14: np.arctan,
    15: lambda a: 1.0 / a,
    16: np.tanh,
}


@kernel("tengine", "Unary", since=1)
def unary(x: np.ndarray, *, type: int) -> tuple[np.ndarray, ...]:
    fn = _FUNCTIONS.get(type)
    if fn is None:
        raise ValueError(f"Unary: type must be 0 to 16, got {type}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = fn(work)
    return (np.asarray(y).astype(x.dtype, copy=False),)
