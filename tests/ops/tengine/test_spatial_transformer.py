"""Tengine SpatialTransformer: an affine grid and bilinear sampling, transcribed from Tengine."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_spatial_transformer_transcribes_tengine() -> None:
    x = RNG.standard_normal((1, 2, 5, 6))
    theta = np.array([0.8, -0.3, 0.1, 0.2, 1.1, -0.2])
    (y,) = tengine_run("SpatialTransformer", [x, theta], sampler_type=1, transformer_type=0, target_shape=[4, 7])
    for c, i, j in itertools.product(range(2), range(4), range(7)):
        xt, yt = -1 + j * 2.0 / 6, -1 + i * 2.0 / 3
        xs = theta[0] * xt + theta[1] * yt + theta[2]
        ys = theta[3] * xt + theta[4] * yt + theta[5]
        yr, xr = float(np.float32((ys + 1) * 4 / 2)), float(np.float32((xs + 1) * 5 / 2))
        ty, tx = math.floor(yr), math.floor(xr)
        wy, wx = 1 - (yr - ty), 1 - (xr - tx)
        total = 0.0
        for dy, dx, f in ((0, 0, wy * wx), (0, 1, wy * (1 - wx)), (1, 0, (1 - wy) * wx), (1, 1, (1 - wy) * (1 - wx))):
            if 0 <= ty + dy <= 4 and 0 <= tx + dx <= 5:
                total += x[0, c, ty + dy, tx + dx] * f
        assert y[0, c, i, j] == pytest.approx(total, rel=1e-9, abs=1e-12)
