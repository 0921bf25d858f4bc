"""Tengine Logistic: the sigmoid 1 / (1 + exp(-x))."""

from __future__ import annotations

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_logistic_is_the_sigmoid() -> None:
    x = (RNG.standard_normal((2, 3, 4, 5)) * 4).astype(np.float32)
    (y,) = tengine_run("Logistic", [x])
    assert y.dtype == np.float32
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(y, 1 / (1 + np.exp(-x64)), rtol=1e-5, atol=1e-6)
