"""Tengine LayerNorm: each last-axis row normalised, then scaled and shifted."""

from __future__ import annotations

import itertools
import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_layernorm_matches_loops() -> None:
    x, g, b = RNG.standard_normal((2, 3, 5)), RNG.standard_normal(5), RNG.standard_normal(5)
    (y,) = tengine_run("LayerNorm", [x, g, b], eps=1e-5)
    for i, j in itertools.product(range(2), range(3)):
        row = x[i, j].tolist()
        mean = sum(row) / 5
        var = sum(v * v for v in row) / 5 - mean * mean
        want = [(v - mean) / math.sqrt(var + 1e-5) * g[k] + b[k] for k, v in enumerate(row)]
        np.testing.assert_allclose(y[i, j], want, rtol=1e-10)
