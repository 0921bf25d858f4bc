"""Tengine Mish: x * tanh(softplus(x))."""

from __future__ import annotations

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_mish_against_its_formula() -> None:
    x = (RNG.standard_normal((2, 3, 4, 5)) * 4).astype(np.float32)
    (y,) = tengine_run("Mish", [x])
    assert y.dtype == np.float32
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(y, x64 * np.tanh(np.log1p(np.exp(x64))), rtol=1e-5, atol=1e-6)
