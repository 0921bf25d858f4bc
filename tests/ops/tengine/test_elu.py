"""Tengine ELU: x, or alpha * (exp(x) - 1) below 0."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


def test_elu_against_its_formula() -> None:
    assert_pointwise_kernel("ELU", RNG.uniform(-5, 5, (2, 3, 4)), lambda v: v if v >= 0 else 0.7 * (math.exp(v) - 1),
                            alpha=0.7)
