"""Tengine ROIAlign: ncnn's ROIAlign (bilinear samples averaged per bin), transcribed."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def _bilinear_ncnn(plane: np.ndarray, x: float, y: float) -> float:
    h, w = plane.shape
    x0, y0 = int(x), int(y)
    x1, y1 = x0 + 1, y0 + 1
    a0, a1, b0, b1 = x1 - x, x - x0, y1 - y, y - y0
    if x1 >= w:
        x1, a0, a1 = w - 1, 1.0, 0.0
    if y1 >= h:
        y1, b0, b1 = h - 1, 1.0, 0.0
    r0 = plane[y0, x0] * a0 + plane[y0, x1] * a1
    r1 = plane[y1, x0] * a0 + plane[y1, x1] * a1
    return float(r0 * b0 + r1 * b1)


def _roialign_loops(x: np.ndarray, roi: list[float], pw: int, ph: int, scale: float) -> np.ndarray:
    _, c, h, w = x.shape
    x1, y1, x2, y2 = (v * scale for v in roi)
    bw, bh = max(x2 - x1, 1) / pw, max(y2 - y1, 1) / ph
    out = np.zeros((1, c, ph, pw))
    for q, i, j in itertools.product(range(c), range(ph), range(pw)):
        hs, ws = min(max(y1 + i * bh, 0), h), min(max(x1 + j * bw, 0), w)
        he, we = min(max(y1 + (i + 1) * bh, 0), h), min(max(x1 + (j + 1) * bw, 0), w)
        gh, gw = math.ceil(he - hs), math.ceil(we - ws)
        if he <= hs or we <= ws:
            continue
        total = sum(_bilinear_ncnn(x[0, q], ws + (bx + 0.5) * bw / gw, hs + (by + 0.5) * bh / gh)
                    for by in range(gh) for bx in range(gw))
        out[0, q, i, j] = total / (gh * gw)
    return out


@pytest.mark.parametrize(("roi", "pooled", "scale"), [
    ([0, 0, 8, 6], (2, 3), 1.0), ([3, 2, 29, 21], (3, 4), 0.25), ([-4, -4, 40, 12], (2, 2), 0.125),
    ([10, 10, 11, 11], (2, 2), 0.5),
])
def test_roialign_transcribes_ncnn(roi: list[float], pooled: tuple[int, int], scale: float) -> None:
    x = RNG.standard_normal((1, 2, 6, 8))
    attrs = {"pooled_height": pooled[0], "pooled_width": pooled[1], "spatial_scale": scale}
    (y,) = tengine_run("ROIAlign", [x, np.asarray(roi, np.float64)], **attrs)
    np.testing.assert_allclose(y, _roialign_loops(x, roi, pooled[1], pooled[0], scale), rtol=1e-9, atol=1e-12)
