"""Tengine Hardsigmoid: alpha * x + beta clamped to [0, 1]."""

from __future__ import annotations

import numpy as np

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


def test_hardsigmoid_against_its_formula() -> None:
    assert_pointwise_kernel("Hardsigmoid", RNG.uniform(-5, 5, (2, 3, 4)), lambda v: min(1.0, max(0.0, 0.2 * v + 0.5)),
                            alpha=0.2, beta=0.5)
