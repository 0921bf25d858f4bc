"""Tengine Psroipooling: R-FCN's position-sensitive ROI average pooling against loops."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def _naive_psroi(feat: np.ndarray, roi: list[float], ph: int, pw: int, scale: float, dim: int) -> np.ndarray:
    def c_round(v: float) -> float:
        return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)
    h, w = feat.shape[2:]
    x0, y0 = c_round(roi[0]) * scale, c_round(roi[1]) * scale
    x1, y1 = c_round(roi[2] + 1) * scale, c_round(roi[3] + 1) * scale
    rw, rh = int(max(x1 - x0, 0)), int(max(y1 - y0, 0))
    bw, bh = rw / pw, rh / ph
    y = np.zeros((1, dim, ph, pw))
    for c, i, j in np.ndindex(dim, ph, pw):
        hs, he = min(max(math.floor(y0 + i * bh), 0), h), min(max(math.ceil(y0 + (i + 1) * bh), 0), h)
        ws, we = min(max(math.floor(x0 + j * bw), 0), w), min(max(math.ceil(x0 + (j + 1) * bw), 0), w)
        cells = [feat[0, (c * ph + i) * pw + j, r, q] for r in range(hs, he) for q in range(ws, we)]
        y[0, c, i, j] = sum(cells) / len(cells) if cells else 0.0
    return y


@pytest.mark.parametrize(("roi", "scale"), [([0, 0, 7, 5], 1.0), ([2.4, 1.5, 12, 9.6], 0.5), ([-3, 2, 1, 2], 1.0),
                                            ([9, 9, 20, 20], 1.0)])
def test_psroipooling_matches_loops(roi: list[float], scale: float) -> None:
    feat = RNG.standard_normal((1, 2 * 3 * 2, 6, 8)).astype(np.float32)
    rois = np.array(roi, np.float32).reshape(1, 1, 4)
    (y,) = tengine_run("Psroipooling", [feat, rois], pooled_w=2, pooled_h=3, spatial_scale=scale, output_dim=2)
    np.testing.assert_allclose(y, _naive_psroi(feat.astype(np.float64), roi, 3, 2, scale, 2), rtol=1e-5, atol=1e-6)
