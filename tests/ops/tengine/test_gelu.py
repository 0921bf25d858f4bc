"""Tengine Gelu: 0.5 * x * (1 + erf(x / sqrt(2))) with Tengine's float32 constant."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import assert_pointwise_kernel, kernel

RNG = np.random.default_rng(20240611)


def test_gelu_matches_math() -> None:
    x = RNG.uniform(-9, 9, (3, 4, 5))
    assert_pointwise_kernel("Gelu", x, lambda v: 0.5 * v * (1 + math.erf(v * float(np.float32(0.707106793288165)))),
                            rtol=1e-12, atol=1e-14)
    (y32,) = kernel("tengine", "Gelu")(x.astype(np.float32))
    assert y32.dtype == np.float32
