"""Tengine Interp: nearest (type 1) and bilinear (types 2, 4: align corners) resizing."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def _naive_bilinear(x: np.ndarray, oh: int, ow: int, align: bool) -> np.ndarray:
    def coeffs(size: int, out: int) -> list[tuple[int, int, float]]:
        res = []
        for d in range(out):
            fx = d * (size - 1) / (out - 1) if align else (d + 0.5) * size / out - 0.5
            sx = math.floor(fx)
            frac = fx - sx
            if sx < 0:
                sx, frac = 0, 0.0
            if sx >= size - 1:
                sx, frac = size - 2, 1.0
            res.append((max(sx, 0), min(sx + 1, size - 1), frac))
        return res
    rows, cols = coeffs(x.shape[2], oh), coeffs(x.shape[3], ow)
    y = np.zeros((*x.shape[:2], oh, ow))
    for i, (r0, r1, fy) in enumerate(rows):
        for j, (c0, c1, fx) in enumerate(cols):
            top = x[:, :, r0, c0] * (1 - fx) + x[:, :, r0, c1] * fx
            bottom = x[:, :, r1, c0] * (1 - fx) + x[:, :, r1, c1] * fx
            y[:, :, i, j] = top * (1 - fy) + bottom * fy
    return y


@pytest.mark.parametrize(("h", "w", "oh", "ow"), [(3, 4, 6, 8), (4, 4, 3, 5), (1, 3, 2, 6), (5, 2, 5, 2)])
@pytest.mark.parametrize("resize_type", [2, 4])
def test_interp_bilinear_matches_loops(h: int, w: int, oh: int, ow: int, resize_type: int) -> None:
    x = RNG.standard_normal((2, 2, h, w)).astype(np.float32)
    (y,) = tengine_run("Interp", [x], resize_type=resize_type, width_scale=0.0, height_scale=0.0, output_width=ow,
                       output_height=oh)
    np.testing.assert_allclose(y, _naive_bilinear(x.astype(np.float64), oh, ow, resize_type == 4), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize(("hs", "ws"), [(2.0, 3.0), (1.5, 0.5), (0.75, 2.5)])
def test_interp_nearest_matches_loops(hs: float, ws: float) -> None:
    x = RNG.standard_normal((1, 2, 4, 6)).astype(np.float32)
    (y,) = tengine_run("Interp", [x], resize_type=1, width_scale=ws, height_scale=hs)
    oh, ow = int(4 * hs), int(6 * ws)
    want = np.array([[[x[0, c, min(int(i / hs), 3), min(int(j / ws), 5)] for j in range(ow)] for i in range(oh)]
                     for c in range(2)])[None]
    np.testing.assert_array_equal(y, want)
