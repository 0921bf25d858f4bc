"""Tengine Absval: the absolute value of every element."""

from __future__ import annotations

import numpy as np

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


def test_absval_is_abs() -> None:
    assert_pointwise_kernel("Absval", RNG.uniform(-5, 5, (2, 3, 4)), abs)
