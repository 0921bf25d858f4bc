"""Tengine InstanceNorm: each (n, c) plane normalised, then scaled and shifted per channel."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_instance_norm_matches_loops() -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float64)
    gamma, beta = RNG.standard_normal(3), RNG.standard_normal(3)
    (y,) = tengine_run("InstanceNorm", [x, gamma, beta], eps=1e-3)
    for n in range(2):
        for c in range(3):
            plane = x[n, c]
            mean = sum(plane.flat) / plane.size
            var = sum((v - mean) ** 2 for v in plane.flat) / plane.size
            np.testing.assert_allclose(y[n, c], gamma[c] * (plane - mean) / math.sqrt(var + 1e-3) + beta[c],
                                       rtol=1e-10)
