"""Tengine RPN: Faster R-CNN's proposals (anchors, decoding, filter, sort, NMS), transcribed from Tengine."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.helpers import kernel, version

RNG = np.random.default_rng(20240611)


def _rpn_loops(score: np.ndarray, bbox: np.ndarray, info: list[float], ratios: list[float], scales: list[float],
               base: int, stride: int, min_size: float, pre: int, post: int, thresh: float) -> list[list[float]]:
    """Tengine's generate_anchors, bbox_tranform_inv, filter, selection sort and NMS, element by element."""
    def rnd(v: float) -> float:
        return math.copysign(math.floor(abs(v) + 0.5), v)

    cx = cy = (base - 1) * 0.5
    anchors = []
    for r in ratios:
        nw = rnd(math.sqrt(base * base / r))
        nh = rnd(nw * r)
        for s in scales:
            aw, ah = nw * s, nh * s
            anchors.append((cx - 0.5 * (aw - 1), cy - 0.5 * (ah - 1), cx + 0.5 * (aw - 1), cy + 0.5 * (ah - 1)))
    a_count, (_, _, h, w) = len(anchors), bbox.shape
    boxes = []
    for i, j, a in itertools.product(range(h), range(w), range(a_count)):
        x0, y0 = anchors[a][0] + j * stride, anchors[a][1] + i * stride
        aw, ah = anchors[a][2] + j * stride - x0 + 1, anchors[a][3] + i * stride - y0 + 1
        dx, dy, dw, dh = (float(bbox[0, 4 * a + k, i, j]) for k in range(4))
        pcx, pcy, pw, ph = dx * aw + x0 + 0.5 * aw, dy * ah + y0 + 0.5 * ah, math.exp(dw) * aw, math.exp(dh) * ah
        if pw >= min_size * info[2] and ph >= min_size * info[2]:
            boxes.append([min(max(pcx - 0.5 * pw, 0), info[1]), min(max(pcy - 0.5 * ph, 0), info[0]),
                          min(max(pcx + 0.5 * pw, 0), info[1]), min(max(pcy + 0.5 * ph, 0), info[0]),
                          float(score[0, a_count + a, i, j])])
    boxes.sort(key=lambda b: -b[4])  # scores are distinct in the test, so any sort agrees
    boxes = boxes[:pre] if pre > 0 else boxes
    kept: list[list[float]] = []
    for b in boxes:
        area = (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
        if all(max(0, min(b[2], k[2]) - max(b[0], k[0]) + 1) * max(0, min(b[3], k[3]) - max(b[1], k[1]) + 1)
               / (area + (k[2] - k[0] + 1) * (k[3] - k[1] + 1)
                  - max(0, min(b[2], k[2]) - max(b[0], k[0]) + 1) * max(0, min(b[3], k[3]) - max(b[1], k[1]) + 1))
               < thresh for k in kept):
            kept.append(b)
    return [k[:4] for k in (kept[:post] if post > 0 else kept)]


@pytest.mark.parametrize(("pre", "post", "thresh"), [(0, 0, 0.7), (20, 5, 0.5), (0, 3, 0.3)])
def test_rpn_transcribes_tengine(pre: int, post: int, thresh: float) -> None:
    ratios, scales = [0.5, 1.0, 2.0], [1.0, 2.0]
    score = RNG.permutation(2 * 6 * 3 * 4).reshape(1, 12, 3, 4).astype(np.float32) / 100
    bbox = (RNG.standard_normal((1, 24, 3, 4)) * 0.3).astype(np.float32)
    info = [48.0, 64.0, 1.0]
    attrs = {"ratios": ratios, "anchor_scales": scales, "feat_stride": 16, "basesize": 16, "min_size": 4,
             "per_nms_topn": pre, "post_nms_topn": post, "nms_thresh": thresh}
    (y,) = kernel("tengine", "RPN")(score, bbox, np.asarray(info, np.float32), **attrs)
    want = _rpn_loops(score, bbox, info, ratios, scales, 16, 16, 4, pre, post, thresh)
    assert y.shape == (1, len(want), 4, 1)
    np.testing.assert_allclose(y.reshape(-1, 4), np.asarray(want).reshape(-1, 4), rtol=1e-4, atol=1e-3)
    assert version("tengine", "RPN", 1).outputs[0].formula is None
