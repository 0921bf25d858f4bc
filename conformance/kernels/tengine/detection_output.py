"""DetectionOutput (tengine, op id 7): SSD box decoding, per-class NMS and the best keep_top_k detections.

Inputs (batch 0 only, as Tengine): `loc` with 4 offsets per prior, `conf` with num_classes scores per
prior, `priorbox` [1, 2, num_prior * 4] (boxes xmin, ymin, xmax, ymax, then their variances). Class 0
is the background. Each row of the output [1, num_detected, 6, 1] is (class, score, x0, y0, x1, y1).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def nms(boxes: np.ndarray, threshold: float) -> list[int]:
    """Indices kept by greedy NMS over boxes [K, 4] (x0, y0, x1, y1) already sorted by score, as Tengine's."""
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    kept: list[int] = []
    for i in range(len(boxes)):  # greedy: each box depends on the ones kept before it
        if not kept:
            kept.append(i)
            continue
        other = boxes[kept]
        apart = ((boxes[i, 0] > other[:, 2]) | (boxes[i, 2] < other[:, 0]) |
                 (boxes[i, 1] > other[:, 3]) | (boxes[i, 3] < other[:, 1]))
        inter = ((np.minimum(boxes[i, 2], other[:, 2]) - np.maximum(boxes[i, 0], other[:, 0])) *
                 (np.minimum(boxes[i, 3], other[:, 3]) - np.maximum(boxes[i, 1], other[:, 1])))
        inter = np.where(apart, 0.0, inter)
        with np.errstate(divide="ignore", invalid="ignore"):
            iou = inter / (areas[i] + areas[kept] - inter)
        if not np.any(iou > threshold):
            kept.append(i)
    return kept


def _decode(loc: np.ndarray, priors: np.ndarray, variances: np.ndarray) -> np.ndarray:
    pw, ph = priors[:, 2] - priors[:, 0], priors[:, 3] - priors[:, 1]
    pcx, pcy = (priors[:, 0] + priors[:, 2]) * 0.5, (priors[:, 1] + priors[:, 3]) * 0.5
    cx = variances[:, 0] * loc[:, 0] * pw + pcx
    cy = variances[:, 1] * loc[:, 1] * ph + pcy
    w = pw * np.exp(variances[:, 2] * loc[:, 2])
    h = ph * np.exp(variances[:, 3] * loc[:, 3])
    return np.stack([cx - w * 0.5, cy - h * 0.5, cx + w * 0.5, cy + h * 0.5], axis=1)


@kernel("tengine", "DetectionOutput", since=1)
def detection_output(loc: np.ndarray, conf: np.ndarray, priorbox: np.ndarray, *, num_classes: int, keep_top_k: int,
                     nms_top_k: int, confidence_threshold: float, nms_threshold: float) -> tuple[np.ndarray, ...]:
    if priorbox.ndim == 4 and priorbox.shape[3] == 1:  # PriorBox's own [1, 2, num_prior * 4, 1]
        priorbox = priorbox[..., 0]
    if priorbox.ndim != 3 or priorbox.shape[1] != 2 or priorbox.shape[2] % 4:
        raise ValueError(f"DetectionOutput: priorbox must be [1, 2, num_prior * 4] (or with a trailing 1), "
                         f"got {priorbox.shape}")
    num_prior = priorbox.shape[2] // 4
    if loc.size < num_prior * 4 or conf.size < num_prior * num_classes:
        raise ValueError(f"DetectionOutput: loc {loc.shape} or conf {conf.shape} too small for {num_prior} priors")
    work = np.promote_types(loc.dtype, np.float32)
    prior = priorbox[0].astype(work).reshape(2, num_prior, 4)
    boxes = _decode(loc.reshape(-1)[:num_prior * 4].astype(work).reshape(num_prior, 4), prior[0], prior[1])
    scores = conf.reshape(-1)[:num_prior * num_classes].astype(work).reshape(num_prior, num_classes)
    rows = []
    for cls in range(1, num_classes):  # class 0 is the background
        candidates = np.flatnonzero(scores[:, cls] > confidence_threshold)
        # Tengine's quicksort leaves ties in no defined order; a stable sort is one of its outcomes.
        candidates = candidates[np.argsort(-scores[candidates, cls], kind="stable")][:max(nms_top_k, 0)]
        for k in nms(boxes[candidates], nms_threshold):
            j = candidates[k]
            rows.append([cls, scores[j, cls], *boxes[j]])
    table = np.asarray(rows, dtype=work).reshape(-1, 6)
    table = table[np.argsort(-table[:, 1], kind="stable")][:max(keep_top_k, 0)]
    return (table.reshape(1, -1, 6, 1).astype(loc.dtype, copy=False),)
