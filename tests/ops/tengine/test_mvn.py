"""Tengine MVN: mean subtracted per channel or across channels, optionally divided by the RMS."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("across", [0, 1])
@pytest.mark.parametrize("variance", [0, 1])
def test_mvn_matches_tengine_loops(across: int, variance: int) -> None:
    x = RNG.standard_normal((2, 3, 2, 4)).astype(np.float64) + 1
    (y,) = tengine_run("MVN", [x], across_channels=across, normalize_variance=variance, eps=1e-9)
    want = np.empty_like(x)
    for n in range(2):
        groups = [list(range(3))] if across else [[c] for c in range(3)]
        for chans in groups:
            vals = [x[n, c, h, w] for c in chans for h in range(2) for w in range(4)]
            mean = sum(vals) / len(vals)
            rms = math.sqrt(sum(v * v for v in vals) / len(vals))
            for c in chans:
                want[n, c] = (x[n, c] - mean) / ((rms + 1e-9) if variance else 1)
    np.testing.assert_allclose(y, want, rtol=1e-10)
