"""Tengine Scale: x * gamma + beta per channel (beta optional)."""

from __future__ import annotations

import itertools

import numpy as np

from tests.helpers import kernel, tengine_run

RNG = np.random.default_rng(20240611)


def test_scale_per_channel() -> None:
    x, g, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal(3), RNG.standard_normal(3)
    (y,) = tengine_run("Scale", [x, g, b])
    (y0,) = kernel("tengine", "Scale")(x, g)
    for n, c in itertools.product(range(2), range(3)):
        np.testing.assert_allclose(y[n, c], x[n, c] * g[c] + b[c])
        np.testing.assert_allclose(y0[n, c], x[n, c] * g[c])
