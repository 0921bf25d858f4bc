"""NonMaxSuppression (10, 11): greedy selection of boxes per batch and class, highest score first.

Per (batch, class): the boxes whose score is above score_threshold (all boxes when it is absent), ordered by
score, higher first, then by index; a box is selected unless its IoU with a box already selected for this class
is greater than iou_threshold; at most max_output_boxes_per_class (absent: 0; negative: 0) boxes are selected.
The output lists [batch, class, box] rows by batch, then class, then selection order.

IoU is computed in float32 as onnxruntime does: boxes are [y1, x1, y2, x2] with either pair of opposite corners
(center_point_box = 0) or [x_center, y_center, width, height] (1). Boxes that do not overlap (a non-positive
intersection side), or of which one has a non-positive area, do not suppress each other.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _corners(boxes: np.ndarray, center_point_box: int) -> tuple[np.ndarray, ...]:
    """(x_min, x_max, y_min, y_max) of each box."""
    if center_point_box == 0:
        y1, x1, y2, x2 = (boxes[:, k] for k in range(4))
        return np.minimum(x1, x2), np.maximum(x1, x2), np.minimum(y1, y2), np.maximum(y1, y2)
    xc, yc, w, h = (boxes[:, k] for k in range(4))
    half_w, half_h = w / np.float32(2), h / np.float32(2)
    return xc - half_w, xc + half_w, yc - half_h, yc + half_h


def overlaps(boxes: np.ndarray, center_point_box: int, iou_threshold: np.float32) -> np.ndarray:
    """n x n: whether box i and box j suppress each other (IoU > iou_threshold)."""
    x_min, x_max, y_min, y_max = _corners(boxes, center_point_box)
    inter_w = np.minimum(x_max[:, None], x_max[None, :]) - np.maximum(x_min[:, None], x_min[None, :])
    inter_h = np.minimum(y_max[:, None], y_max[None, :]) - np.maximum(y_min[:, None], y_min[None, :])
    inter = inter_w * inter_h
    area = (x_max - x_min) * (y_max - y_min)
    union = area[:, None] + area[None, :] - inter
    valid = (inter_w > 0) & (inter_h > 0) & (inter > 0) & (area[:, None] > 0) & (area[None, :] > 0) & (union > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / union
    return np.asarray(valid & (iou > iou_threshold))


def _scalar(x: np.ndarray | None, name: str) -> np.ndarray | None:
    if x is None:
        return None
    if x.size != 1:
        raise ValueError(f"NonMaxSuppression: {name} must hold one value, got shape {x.shape}")
    return np.asarray(x).reshape(())


@kernel("ai.onnx", "NonMaxSuppression", since=10)
def non_max_suppression(boxes: np.ndarray, scores: np.ndarray, max_output_boxes_per_class: np.ndarray | None,
                        iou_threshold: np.ndarray | None, score_threshold: np.ndarray | None, *,
                        center_point_box: int) -> tuple[np.ndarray, ...]:
    if boxes.ndim != 3 or boxes.shape[2] != 4:
        raise ValueError(f"NonMaxSuppression: boxes must be num_batches x num_boxes x 4, got {boxes.shape}")
    if scores.ndim != 3 or scores.shape[0] != boxes.shape[0] or scores.shape[2] != boxes.shape[1]:
        raise ValueError(f"NonMaxSuppression: scores {scores.shape} must be num_batches x num_classes x num_boxes "
                         f"for boxes {boxes.shape}")
    if center_point_box not in (0, 1):
        raise ValueError(f"NonMaxSuppression: center_point_box must be 0 or 1, got {center_point_box}")
    limit_value = _scalar(max_output_boxes_per_class, "max_output_boxes_per_class")
    iou_value = _scalar(iou_threshold, "iou_threshold")
    score_value = _scalar(score_threshold, "score_threshold")
    limit = max(int(limit_value), 0) if limit_value is not None else 0
    iou_limit = np.float32(iou_value) if iou_value is not None else np.float32(0)
    rows: list[list[int]] = []
    for b in range(boxes.shape[0]):
        suppress = overlaps(boxes[b].astype(np.float32), center_point_box, iou_limit) if limit else None
        for c in range(scores.shape[1]):
            if suppress is None:
                continue
            score = scores[b, c].astype(np.float32)
            candidates = np.arange(score.size)
            if score_value is not None:
                candidates = candidates[score > np.float32(score_value)]
            order = candidates[np.lexsort((candidates, -score[candidates]))]  # score descending, then index
            alive = np.ones(order.size, dtype=bool)
            chosen = 0
            for k in range(order.size):  # greedy: each selection suppresses the boxes it overlaps
                if not alive[k]:
                    continue
                rows.append([b, c, int(order[k])])
                chosen += 1
                if chosen == limit:
                    break
                alive[k + 1:] &= ~suppress[order[k], order[k + 1:]]
    return (np.array(rows, dtype=np.int64).reshape(len(rows), 3),)
