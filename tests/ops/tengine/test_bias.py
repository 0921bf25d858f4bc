"""Tengine Bias: a per-channel bias added to NCHW data."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240602)
bias = kernel("tengine", "Bias")


def test_bias_is_per_channel() -> None:
    x, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal(3)
    (added,) = bias(x, b)
    for n, c, h, w in np.ndindex(*x.shape):
        assert added[n, c, h, w] == x[n, c, h, w] + b[c]
