"""Tengine Ceil: every element rounded up."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


def test_ceil_rounds_up() -> None:
    assert_pointwise_kernel("Ceil", RNG.uniform(-5, 5, (2, 3, 4)), math.ceil)
