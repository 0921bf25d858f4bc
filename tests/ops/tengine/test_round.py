"""Tengine Round: halves rounded away from zero, float32 and float64."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240611)
round_ = kernel("tengine", "Round")


def test_round_halves_away_from_zero() -> None:
    x = np.concatenate([np.arange(-5, 5.5, 0.5), RNG.uniform(-100, 100, 40), [0.49999997, -0.49999997]])
    for dtype in (np.float32, np.float64):
        xs = x.astype(dtype)
        (y,) = round_(xs)
        want = np.array([math.copysign(float(int(abs(v)) + (abs(v) - int(abs(v)) >= 0.5)), v) for v in xs.tolist()])
        np.testing.assert_array_equal(y, want.astype(dtype))
    assert round_(np.array([2.5, -2.5, 0.5], np.float32))[0].tolist() == [3.0, -3.0, 1.0]
