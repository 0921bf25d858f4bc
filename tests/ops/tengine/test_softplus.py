"""Tengine Softplus: log(exp(x) + 1), float64 and float32."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import assert_pointwise_kernel, kernel

RNG = np.random.default_rng(20240611)


def test_softplus_matches_math() -> None:
    x = RNG.uniform(-20, 60, (3, 4, 5))
    assert_pointwise_kernel("Softplus", x, lambda v: math.log(math.exp(v) + 1), rtol=1e-12, atol=1e-14)
    (y32,) = kernel("tengine", "Softplus")(x.astype(np.float32))
    assert y32.dtype == np.float32
