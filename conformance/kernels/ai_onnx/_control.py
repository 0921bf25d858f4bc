"""What the control-flow kernels (If, Loop, Scan) share: reading single-element conditions and counts, and
stacking the per-iteration values of a scan output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Body = Callable[..., list[Any]]  # a graph attribute: body(*inputs) -> its outputs


def single(x: np.ndarray, what: str) -> Any:
    """The one element of a single-element tensor (a condition, a trip count)."""
    flat = np.asarray(x).reshape(-1)
    if flat.size != 1:
        raise ValueError(f"{what} must hold a single element, it has {flat.size}")
    return flat[0].item()


def stacked(slices: Sequence[np.ndarray], axis: int, declared: tuple[Any, Any]) -> np.ndarray:
    """The per-iteration values of one scan output stacked along a new `axis` (normalised against the stacked
    rank). With no iteration, an empty stack shaped after the body's declared output (its element type and
    static shape), as far as it declares them."""
    if slices:
        rank = np.asarray(slices[0]).ndim + 1
        return np.stack([np.asarray(s) for s in slices], axis=axis % rank)
    dtype, shape = declared
    element = () if shape is None else tuple(shape)
    rank = len(element) + 1
    at = axis % rank
    return np.zeros((*element[:at], 0, *element[at:]), dtype=dtype if dtype is not None else np.float32)
