"""Tengine ReLU: leaky, negative values times negative_slope."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)


def test_relu_is_leaky() -> None:
    x = RNG.standard_normal(50).astype(np.float32)
    fn = kernel("tengine", "ReLU")
    np.testing.assert_array_equal(fn(x, negative_slope=0.0)[0], np.maximum(x, 0))
    np.testing.assert_allclose(fn(x, negative_slope=0.1)[0], np.where(x < 0, np.float32(0.1) * x, x))
