"""Tengine Unary: its 17 function codes against Python's math, and an unknown code refused."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from tests.helpers import kernel, pointwise

RNG = np.random.default_rng(20240611)
unary = kernel("tengine", "Unary")

_UNARY: list[Callable[[float], float]] = [
    abs, lambda v: -v, math.floor, math.ceil, lambda v: v * v, math.sqrt, lambda v: 1 / math.sqrt(v), math.exp,
    math.log, math.sin, math.cos, math.tan, math.asin, math.acos, math.atan, lambda v: 1 / v, math.tanh]


@pytest.mark.parametrize("code", range(17))
def test_unary_types(code: int) -> None:
    x = RNG.uniform(0.05, 0.95, 20) * (1 if code in (5, 6, 8) else RNG.choice([-1, 1], 20))
    (y,) = unary(x, type=code)
    np.testing.assert_allclose(y, pointwise(_UNARY[code], x), rtol=1e-12)
    with pytest.raises(ValueError, match="type"):
        unary(x, type=17)
