"""Tengine DropOut: the identity at inference."""

from __future__ import annotations

import numpy as np

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


def test_dropout_is_the_identity() -> None:
    assert_pointwise_kernel("DropOut", RNG.uniform(-5, 5, (2, 3, 4)), lambda v: v)
