"""Tengine Threshold: 1 above the (float32) threshold, else 0."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel, pointwise

RNG = np.random.default_rng(20240611)


def test_threshold_is_a_step() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    (t,) = kernel("tengine", "Threshold")(x, threshold=0.25)
    np.testing.assert_array_equal(t, pointwise(lambda v: 1.0 if v > np.float32(0.25) else 0.0, x))
