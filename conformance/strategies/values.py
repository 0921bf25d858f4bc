"""Array contents: finite, small magnitudes, drawn as a seed and filled by numpy (fast for ~4k elements)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.dtypes import FLOAT_ELEMENTS, numpy_dtype
from conformance.strategies.strings import fill_strings

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def check_bounds(name_low: str, low: float, name_high: str, high: float) -> None:
    if low > high:
        raise ValueError(f"{name_low}={low} must not exceed {name_high}={high}")


def fill_array(seed: int, element: str, shape: Sequence[int], *, min_value: float = -4.0,
               max_value: float = 4.0) -> np.ndarray:
    """An array of `element` values in [min_value, max_value] (clipped to the dtype), reproducible from `seed`."""
    check_bounds("min_value", min_value, "max_value", max_value)
    if element == "string":  # the bounds concern numbers only
        return fill_strings(seed, shape)
    rng = np.random.default_rng(seed)
    dtype = numpy_dtype(element)
    size = tuple(int(d) for d in shape)
    if element == "bool":
        return np.asarray(rng.integers(0, 2, size=size).astype(bool))
    if element in FLOAT_ELEMENTS:
        # quarter steps keep sums exact in every float width, so tolerance failures mean real differences
        steps = rng.integers(int(np.ceil(min_value * 4)), int(np.floor(max_value * 4)) + 1, size=size)
        return np.asarray((steps / 4.0).astype(dtype))
    info = np.iinfo(dtype)
    low, high = max(int(np.ceil(min_value)), int(info.min)), min(int(np.floor(max_value)), int(info.max))
    if low > high:
        low, high = int(info.min), int(info.min)
    return np.asarray(rng.integers(low, high + 1, size=size).astype(dtype))


def arrays(element: str, shape: Sequence[int], *, min_value: float = -4.0,
           max_value: float = 4.0) -> st.SearchStrategy[np.ndarray]:
    """Strategy for arrays of `element` and `shape`; bounds are checked when the strategy is built."""
    check_bounds("min_value", min_value, "max_value", max_value)
    numpy_dtype(element)
    return SEEDS.map(lambda seed: fill_array(seed, element, shape, min_value=min_value, max_value=max_value))
