"""Tengine L2Normalization: every row divided by its L2 norm."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_l2_normalization_rows() -> None:
    x = RNG.standard_normal((3, 5)).astype(np.float64)
    (y,) = tengine_run("L2Normalization", [x])
    for i in range(3):
        norm = math.sqrt(sum(v * v for v in x[i]))
        np.testing.assert_allclose(y[i], x[i] / norm, rtol=1e-12)
