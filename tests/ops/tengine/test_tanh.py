"""Tengine TanH: the hyperbolic tangent, float64 and float32."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import assert_pointwise_kernel, kernel

RNG = np.random.default_rng(20240611)


def test_tanh_matches_math() -> None:
    x = RNG.uniform(-5, 5, (3, 4, 5))
    assert_pointwise_kernel("TanH", x, math.tanh, rtol=1e-12, atol=1e-14)
    (y32,) = kernel("tengine", "TanH")(x.astype(np.float32))
    assert y32.dtype == np.float32
