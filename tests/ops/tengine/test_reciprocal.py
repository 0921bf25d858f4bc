"""Tengine Reciprocal: 1 / x, float64 and float32."""

from __future__ import annotations

import numpy as np

from tests.helpers import assert_pointwise_kernel, kernel

RNG = np.random.default_rng(20240611)


def test_reciprocal_matches_math() -> None:
    x = RNG.uniform(0.1, 9, (3, 4, 5))
    assert_pointwise_kernel("Reciprocal", x, lambda v: 1 / v, rtol=1e-12, atol=1e-14)
    (y32,) = kernel("tengine", "Reciprocal")(x.astype(np.float32))
    assert y32.dtype == np.float32
