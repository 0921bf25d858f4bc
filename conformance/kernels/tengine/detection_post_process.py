"""DetectionPostProcess (tengine, op id 30): TensorFlow Lite's SSD post-processing (regular NMS per class).

Inputs (batch 1): `input`, the box encodings, one (y, x, h, w) row per anchor, `score` [1, num_boxes, num_classes + 1]
(class 0 the background) and `anchor`, one (y, x, h, w) row per anchor. Outputs with
D = max_detections * max_classes_per_detection slots: boxes [1, D, 4] as (x0, y0, x1, y1), classes
[1, D], scores [1, D] and the count [1]; slots past the count are 0.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel
from conformance.kernels.tengine.detection_output import nms


def _decode(encodings: np.ndarray, anchors: np.ndarray, scales: list[float]) -> np.ndarray:
    cy = encodings[:, 0] / scales[0] * anchors[:, 2] + anchors[:, 0]
    cx = encodings[:, 1] / scales[1] * anchors[:, 3] + anchors[:, 1]
    half_h = 0.5 * np.exp(encodings[:, 2] / scales[2]) * anchors[:, 2]
    half_w = 0.5 * np.exp(encodings[:, 3] / scales[3]) * anchors[:, 3]
    return np.stack([cx - half_w, cy - half_h, cx + half_w, cy + half_h], axis=1)


@kernel("tengine", "DetectionPostProcess", since=1)
def detection_post_process(boxes: np.ndarray, scores: np.ndarray, anchors: np.ndarray, *, max_detections: int,
                           max_classes_per_detection: int, nms_score_threshold: float, nms_iou_threshold: float,
                           num_classes: int, scales: list[float] | None) -> tuple[np.ndarray, ...]:
    if scales is None or len(scales) != 4:
        raise ValueError(f"DetectionPostProcess: scales needs 4 values (y, x, h, w), got {scales}")
    num_boxes = boxes.size // 4
    if scores.size != num_boxes * (num_classes + 1) or anchors.size != num_boxes * 4:
        raise ValueError(f"DetectionPostProcess: scores {scores.shape} and anchors {anchors.shape} do not fit "
                         f"{num_boxes} boxes and {num_classes} classes")
    work = np.promote_types(boxes.dtype, np.float32)
    decoded = _decode(boxes.reshape(num_boxes, 4).astype(work), anchors.reshape(num_boxes, 4).astype(work),
                      [float(s) for s in scales])
    table = scores.reshape(num_boxes, num_classes + 1).astype(work)
    # Tengine drops boxes whose top-left corner is negative before any NMS.
    inside = (decoded[:, 0] >= 0) & (decoded[:, 1] >= 0)
    picked: list[tuple[float, int, int]] = []  # (score, class, box)
    for cls in range(1, num_classes + 1):
        candidates = np.flatnonzero((table[:, cls] >= nms_score_threshold) & inside)
        candidates = candidates[np.argsort(-table[candidates, cls], kind="stable")][:2 * max_detections]
        picked += [(float(table[candidates[k], cls]), cls, int(candidates[k]))
                   for k in nms(decoded[candidates], nms_iou_threshold)]
    slots = max_detections * max_classes_per_detection
    order = sorted(range(len(picked)), key=lambda i: -picked[i][0])[:min(max_detections, slots)]
    out_boxes, out_classes = np.zeros((1, slots, 4), work), np.zeros((1, slots), work)
    out_scores = np.zeros((1, slots), work)
    for row, i in enumerate(order):
        score, cls, box = picked[i]
        out_boxes[0, row], out_classes[0, row], out_scores[0, row] = decoded[box], cls, score
    count = np.asarray([len(order)], work)
    return tuple(a.astype(boxes.dtype, copy=False) for a in (out_boxes, out_classes, out_scores, count))
