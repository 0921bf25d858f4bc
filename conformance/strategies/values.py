"""Array contents: finite, small magnitudes, drawn as a seed and filled by numpy (fast for ~4k elements)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import COMPLEX, COMPUTE_AS, finite_range
from conformance.strategies.dtypes import FLOAT_ELEMENTS, numpy_dtype
from conformance.strategies.memo import integers
from conformance.strategies.strings import fill_strings

SEEDS = integers(min_value=0, max_value=2**32 - 1)


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
    if element == "bool":  # false and true are 0 and 1: bounds inside [0, 1] narrow the draw
        false, true = max(0, int(np.ceil(min_value))), min(1, int(np.floor(max_value)))
        return np.asarray(rng.integers(false, max(false, true) + 1, size=size).astype(bool))
    if element == "float8e8m0":  # powers of two only (no zero, no sign)
        low, high = max(min_value, 2.0**-3), max(max_value, 2.0**-3)
        exponents = rng.integers(int(np.ceil(np.log2(low))), int(np.floor(np.log2(high))) + 1, size=size)
        return np.asarray(np.exp2(exponents).astype(np.float32).astype(dtype))
    if element in COMPLEX:
        real, imag = (_quarter_steps(rng, min_value, max_value, size) for _ in range(2))
        return np.asarray((real + 1j * imag).astype(dtype))
    if element in FLOAT_ELEMENTS:
        # quarter steps keep sums exact in every float width, so tolerance failures mean real differences
        low, high = finite_range(element)
        steps = _quarter_steps(rng, max(min_value, low), min(max_value, high), size)
        return np.asarray(steps.astype(COMPUTE_AS.get(element, dtype)).astype(dtype))
    type_low, type_high = finite_range(element)
    low, high = max(int(np.ceil(min_value)), int(type_low)), min(int(np.floor(max_value)), int(type_high))
    if low > high:
        low, high = int(type_low), int(type_low)
    return np.asarray(rng.integers(low, high + 1, size=size).astype(COMPUTE_AS.get(element, dtype)).astype(dtype))


def _quarter_steps(rng: np.random.Generator, low: float, high: float, size: tuple[int, ...]) -> np.ndarray:
    steps = rng.integers(int(np.ceil(low * 4)), int(np.floor(high * 4)) + 1, size=size)
    return np.asarray(steps / 4.0)


def arrays(element: str, shape: Sequence[int], *, min_value: float = -4.0,
           max_value: float = 4.0) -> st.SearchStrategy[np.ndarray]:
    """Strategy for arrays of `element` and `shape`; bounds are checked when the strategy is built."""
    check_bounds("min_value", min_value, "max_value", max_value)
    numpy_dtype(element)
    return SEEDS.map(lambda seed: fill_array(seed, element, shape, min_value=min_value, max_value=max_value))
