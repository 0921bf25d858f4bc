"""Tengine RoiPooling: Fast R-CNN's ROI max pooling, transcribed from Tengine."""

from __future__ import annotations

import itertools
import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def _roipool_loops(x: np.ndarray, rois: np.ndarray, ph: int, pw: int, scale: float) -> np.ndarray:
    _, c, h, w = x.shape
    out = np.zeros((rois.shape[1], c, ph, pw))
    for n in range(rois.shape[1]):
        bx0, by0, bx1, by1 = (int(math.copysign(math.floor(abs(v * scale) + 0.5), v)) for v in rois[0, n].tolist())
        # C: float bin sizes, multiplied in double
        bin_w = float(np.float32(max(bx1 - bx0 + 1, 1)) / np.float32(pw))
        bin_h = float(np.float32(max(by1 - by0 + 1, 1)) / np.float32(ph))
        for q, i, j in itertools.product(range(c), range(ph), range(pw)):
            h0 = min(max(by0 + math.floor(i * bin_h), 0), h)
            h1 = min(max(by0 + math.ceil((i + 1) * bin_h), 0), h)
            w0 = min(max(bx0 + math.floor(j * bin_w), 0), w)
            w1 = min(max(bx0 + math.ceil((j + 1) * bin_w), 0), w)
            out[n, q, i, j] = 0.0 if h1 <= h0 or w1 <= w0 else x[0, q, h0:h1, w0:w1].max()
    return out


def test_roipooling_transcribes_tengine() -> None:
    x = RNG.standard_normal((1, 3, 7, 9))
    rois = np.array([[[0, 0, 16, 12], [4, 2, 30, 26], [-8, 3, 5, 40], [33, 20, 40, 40]]], np.float64)
    (y,) = tengine_run("RoiPooling", [x, rois], pooled_h=3, pooled_w=2, spatial_scale=0.25)
    np.testing.assert_allclose(y, _roipool_loops(x, rois, 3, 2, 0.25))
