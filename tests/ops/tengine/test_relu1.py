"""Tengine ReLU1: x clamped to [-1, 1]."""

from __future__ import annotations

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_relu1_clamps_to_minus_1_and_1() -> None:
    x = (RNG.standard_normal((2, 3, 4, 5)) * 4).astype(np.float32)
    (y,) = tengine_run("ReLU1", [x])
    assert y.dtype == np.float32
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(y, np.minimum(np.maximum(x64, -1), 1), rtol=1e-5, atol=1e-6)
