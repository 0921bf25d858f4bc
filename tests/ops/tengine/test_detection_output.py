"""Tengine DetectionOutput: SSD box decoding, per-class NMS and top-k against a plain re-implementation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tests.helpers import Scored, greedy_nms, kernel

RNG = np.random.default_rng(20240602)
detection_output = kernel("tengine", "DetectionOutput")


def test_detection_output_against_plain_ssd() -> None:
    num_prior, num_classes = 12, 3
    centres = RNG.uniform(0.2, 0.8, (num_prior, 2))
    sizes = RNG.uniform(0.1, 0.3, (num_prior, 2))
    priors = np.concatenate([centres - sizes / 2, centres + sizes / 2], axis=1)
    variances = np.tile([0.1, 0.1, 0.2, 0.2], (num_prior, 1))
    priorbox = np.stack([priors.reshape(-1), variances.reshape(-1)])[None]
    loc = RNG.standard_normal((1, num_prior * 4)) * 0.5
    conf = RNG.uniform(0, 1, (1, num_prior * num_classes))
    attrs: dict[str, Any] = {"num_classes": num_classes, "keep_top_k": 6, "nms_top_k": 5, "confidence_threshold": 0.3,
                             "nms_threshold": 0.3}
    (y,) = detection_output(loc, conf, priorbox, **attrs)
    rows = []
    for cls in range(1, num_classes):
        cands: list[Scored] = []
        for j in range(num_prior):
            score = conf[0, j * num_classes + cls]
            if score > 0.3:
                p, v, lo = priors[j], variances[j], loc[0, 4 * j:4 * j + 4]
                pw, ph = p[2] - p[0], p[3] - p[1]
                cx, cy = v[0] * lo[0] * pw + (p[0] + p[2]) / 2, v[1] * lo[1] * ph + (p[1] + p[3]) / 2
                bw, bh = pw * math.exp(v[2] * lo[2]), ph * math.exp(v[3] * lo[3])
                cands.append((score, j, [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]))
        cands.sort(key=lambda t: -t[0])
        rows += [[cls, s, *box] for s, _, box in greedy_nms(cands[:5], 0.3)]
    rows.sort(key=lambda t: -t[1])
    want = np.array(rows[:6]).reshape(1, -1, 6, 1)
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=1e-10)
