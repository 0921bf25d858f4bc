"""Tengine Sigmoid: 1 / (1 + exp(-x)) with x clamped below at -30 only."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import kernel, pointwise

RNG = np.random.default_rng(20240611)


def test_sigmoid_clamps_only_below() -> None:
    x = np.concatenate([RNG.uniform(-10, 10, 50), [-30, -31, -100, 40]]).astype(np.float32)
    (y,) = kernel("tengine", "Sigmoid")(x)
    want = pointwise(lambda v: 1 / (1 + math.exp(-max(v, -30.0))), x)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    assert y[-2] == y[-3] > 9e-14
