"""Tengine DetectionPostProcess: TFLite box decoding and per-class NMS against a plain re-implementation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tests.helpers import Scored, formula_shapes, greedy_nms, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "DetectionPostProcess", 1)
detection_post_process = kernel("tengine", "DetectionPostProcess")


def test_detection_post_process_against_plain_tflite() -> None:
    num_boxes, num_classes = 10, 2
    anchors = np.concatenate([RNG.uniform(0.3, 0.7, (num_boxes, 2)), RNG.uniform(0.1, 0.3, (num_boxes, 2))], axis=1)
    enc = RNG.standard_normal((num_boxes, 4)) * 0.5
    scores = RNG.uniform(0, 1, (num_boxes, num_classes + 1))
    scales = [10.0, 10.0, 5.0, 5.0]
    attrs: dict[str, Any] = {"max_detections": 3, "max_classes_per_detection": 2, "nms_score_threshold": 0.4,
                             "nms_iou_threshold": 0.2, "num_classes": num_classes, "scales": scales}
    boxes, classes, scored, count = detection_post_process(enc[None], scores[None], anchors[None], **attrs)
    picked: list[Scored] = []
    for cls in range(1, num_classes + 1):
        cands: list[Scored] = []
        for j in range(num_boxes):
            ey, ex, eh, ew = enc[j]
            ay, ax, ah, aw = anchors[j]
            cy, cx = ey / scales[0] * ah + ay, ex / scales[1] * aw + ax
            hh, hw = 0.5 * math.exp(eh / scales[2]) * ah, 0.5 * math.exp(ew / scales[3]) * aw
            box = [cx - hw, cy - hh, cx + hw, cy + hh]
            if scores[j, cls] >= 0.4 and box[0] >= 0 and box[1] >= 0:
                cands.append((scores[j, cls], cls, box))
        cands.sort(key=lambda t: -t[0])
        picked += greedy_nms(cands[:6], 0.2)
    picked.sort(key=lambda t: -t[0])
    picked = picked[:3]
    assert boxes.shape == (1, 6, 4) and classes.shape == scored.shape == (1, 6) and count.shape == (1,)
    assert count[0] == len(picked)
    np.testing.assert_allclose(scored[0, :len(picked)], [p[0] for p in picked], rtol=1e-12)
    np.testing.assert_array_equal(classes[0, :len(picked)], [p[1] for p in picked])
    np.testing.assert_allclose(boxes[0, :len(picked)], [p[2] for p in picked], rtol=1e-10)
    assert not scored[0, len(picked):].any()
    assert formula_shapes(V, [enc[None], scores[None], anchors[None]], attrs) == [[1, 6, 4], [1, 6], [1, 6], [1]]
