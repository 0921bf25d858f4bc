"""Tengine Upsample: nearest upsampling by a float32 scale, transcribed from Tengine."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("scale", [1.0, 2.0, 3.0, 1.5, 0.5])
def test_upsample_transcribes_tengine(scale: float) -> None:
    x = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
    (y,) = tengine_run("Upsample", [x], scale=scale)
    f = np.float32(scale)
    for c, h, w in itertools.product(range(2), range(y.shape[2]), range(y.shape[3])):
        assert y[0, c, h, w] == x[0, c, int(np.float32(h) / f), int(np.float32(w) / f)]
