"""Tengine SELU: gamma * x, or gamma * alpha * (exp(x) - 1) below 0."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import kernel, pointwise

RNG = np.random.default_rng(20240611)


def test_selu_against_its_formula() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    (y,) = kernel("tengine", "SELU")(x, alpha=1.5, gamma=2.0)
    np.testing.assert_allclose(y, pointwise(lambda v: 2.0 * v if v >= 0 else 3.0 * (math.exp(v) - 1), x),
                               rtol=1e-5, atol=1e-6)
