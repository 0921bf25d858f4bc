"""Tengine LogSoftmax: x - log(sum(exp(x))) along any axis."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_log_softmax_every_axis() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float64) * 5
    for axis in (-3, -1, 0, 1, 2):
        (y,) = tengine_run("LogSoftmax", [x], axis=axis)
        moved = np.moveaxis(x, axis, -1)
        want = np.empty_like(moved)
        for idx in np.ndindex(*moved.shape[:-1]):
            row = moved[idx]
            want[idx] = [v - math.log(sum(math.exp(u) for u in row)) for v in row]
        np.testing.assert_allclose(y, np.moveaxis(want, -1, axis), rtol=1e-10, atol=1e-12)
