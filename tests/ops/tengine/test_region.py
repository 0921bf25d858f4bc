"""Tengine Region: darknet's YOLOv2 region layer (sigmoids and class softmax) against loops."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_region_matches_darknet_loops() -> None:
    num_box, classes = 2, 3
    x = RNG.standard_normal((1, num_box * (5 + classes), 2, 3)).astype(np.float64)
    (y,) = tengine_run("Region", [x], num_classes=classes, num_box=num_box, coords=4)
    want = x.copy()
    per = 5 + classes
    for b, h, w in np.ndindex(num_box, 2, 3):
        base = b * per
        for e in (0, 1, 4):
            want[0, base + e, h, w] = 1 / (1 + math.exp(-x[0, base + e, h, w]))
        scores = [x[0, base + 5 + k, h, w] for k in range(classes)]
        total = sum(math.exp(s) for s in scores)
        for k in range(classes):
            want[0, base + 5 + k, h, w] = math.exp(scores[k]) / total
    np.testing.assert_allclose(y, want, rtol=1e-12)
