"""RPN (tengine, op id 25): Faster R-CNN proposals as Tengine computes them (anchors, decode, filter, sort, NMS)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _round_half_away(v: np.ndarray) -> np.ndarray:
    return np.asarray(np.copysign(np.floor(np.abs(v) + 0.5), v))


def generate_anchors(base_size: int, ratios: list[float], scales: list[float]) -> np.ndarray:
    """[A, 4] anchors x0, y0, x1, y1, ratio-major, as tengine-lite's generate_anchors."""
    f32 = np.float32
    side = f32(base_size)
    centre = (side - f32(1)) * f32(0.5)  # centre of the base box [0, base_size - 1]
    r = np.asarray(ratios, f32)
    widths = _round_half_away(np.sqrt(side * side / r)).astype(f32)
    heights = _round_half_away(widths * r).astype(f32)
    s = np.asarray(scales, f32)
    w = (widths[:, None] * s[None, :]).reshape(-1)
    h = (heights[:, None] * s[None, :]).reshape(-1)
    half_w, half_h = f32(0.5) * (w - f32(1)), f32(0.5) * (h - f32(1))
    return np.stack([centre - half_w, centre - half_h, centre + half_w, centre + half_h], axis=1).astype(f32)


def _decode(anchors: np.ndarray, deltas: np.ndarray, stride: int) -> np.ndarray:
    """[H, W, A, 4] boxes as centre x, centre y, width, height from bbox deltas [A, 4, H, W]."""
    f32 = np.float32
    _, _, h, w = deltas.shape
    shift_x = (np.arange(w, dtype=f32) * f32(stride))[None, :, None]
    shift_y = (np.arange(h, dtype=f32) * f32(stride))[:, None, None]
    x0 = anchors[None, None, :, 0] + shift_x
    y0 = anchors[None, None, :, 1] + shift_y
    aw = anchors[None, None, :, 2] + shift_x - x0 + f32(1)
    ah = anchors[None, None, :, 3] + shift_y - y0 + f32(1)
    d = deltas.transpose(2, 3, 0, 1).astype(f32)  # [H, W, A, 4]
    cx = d[..., 0] * aw + (x0 + aw * f32(0.5))
    cy = d[..., 1] * ah + (y0 + ah * f32(0.5))
    return np.stack([cx, cy, np.exp(d[..., 2]) * aw, np.exp(d[..., 3]) * ah], axis=-1).astype(f32)


def _nms(boxes: np.ndarray, threshold: float) -> np.ndarray:
    """Indices kept by greedy NMS over boxes sorted by score (areas with the +1 convention)."""
    areas = (boxes[:, 2] - boxes[:, 0] + 1) * (boxes[:, 3] - boxes[:, 1] + 1)
    kept: list[int] = []
    for i in range(len(boxes)):  # greedy: each box is compared with the boxes kept so far
        if kept:
            k = np.asarray(kept)
            iw = np.maximum(0, np.minimum(boxes[i, 2], boxes[k, 2]) - np.maximum(boxes[i, 0], boxes[k, 0]) + 1)
            ih = np.maximum(0, np.minimum(boxes[i, 3], boxes[k, 3]) - np.maximum(boxes[i, 1], boxes[k, 1]) + 1)
            inter = iw * ih
            if np.any(inter / (areas[i] + areas[k] - inter) >= threshold):
                continue
        kept.append(i)
    return np.asarray(kept, dtype=np.int64)


@kernel("tengine", "RPN", since=1)
def rpn(score: np.ndarray, bbox: np.ndarray, im_info: np.ndarray, *, ratios: list[float], anchor_scales: list[float],
        feat_stride: int, basesize: int, min_size: int, per_nms_topn: int, post_nms_topn: int, nms_thresh: float,
        anchors: list[float] | None) -> tuple[np.ndarray, ...]:
    # `anchors` is the stored TM2_Vector_anchors; tengine-lite regenerates them instead of reading it
    base = generate_anchors(basesize, ratios, anchor_scales)
    count = len(base)
    _, _, h, w = bbox.shape
    if bbox.shape[:2] != (1, 4 * count) or score.shape != (1, 2 * count, h, w):
        raise ValueError(f"RPN: {count} anchors need score [1, {2 * count}, H, W] and bbox [1, {4 * count}, H, W], "
                         f"got {score.shape} and {bbox.shape}")
    info = im_info.reshape(-1).astype(np.float32)
    img_h, img_w, img_scale = info[0], info[1], info[2]
    boxes = _decode(base, bbox[0].reshape(count, 4, h, w), feat_stride).reshape(-1, 4)  # cell-major, anchor-minor
    scores = score[0, count:].astype(np.float32).transpose(1, 2, 0).reshape(-1)
    smallest = np.float32(min_size) * img_scale
    keep = (boxes[:, 2] >= smallest) & (boxes[:, 3] >= smallest)
    half_w, half_h = np.float32(0.5) * boxes[:, 2], np.float32(0.5) * boxes[:, 3]
    corners = np.stack([np.clip(boxes[:, 0] - half_w, 0, img_w), np.clip(boxes[:, 1] - half_h, 0, img_h),
                        np.clip(boxes[:, 0] + half_w, 0, img_w), np.clip(boxes[:, 1] + half_h, 0, img_h)], axis=1)
    corners, scores = corners[keep], scores[keep]
    order = np.argsort(-scores, kind="stable")
    if per_nms_topn > 0:
        order = order[:per_nms_topn]
    survivors = corners[order][_nms(corners[order], nms_thresh)]
    if post_nms_topn > 0:
        survivors = survivors[:post_nms_topn]
    return (survivors.reshape(1, len(survivors), 4, 1).astype(score.dtype),)
