"""Tengine PriorBox: SSD prior boxes and their variances against loops."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def _naive_priors(fh: int, fw: int, ih: int, iw: int, mins: list[float], maxs: list[float], ratios: list[float],
                  flip: int, clip: int, variance: list[float]) -> list[float]:
    boxes: list[float] = []
    sw, sh = iw / fw, ih / fh
    for h in range(fh):
        for w in range(fw):
            cx, cy = (w + 0.5) * sw, (h + 0.5) * sh
            for s, m in enumerate(mins):
                mn = int(m)
                boxes += [(cx - mn / 2) / iw, (cy - mn / 2) / ih, (cx + mn / 2) / iw, (cy + mn / 2) / ih]
                if maxs:
                    side = math.sqrt(mn * int(maxs[s]))
                    boxes += [(cx - side / 2) / iw, (cy - side / 2) / ih, (cx + side / 2) / iw, (cy + side / 2) / ih]
                for ar in ratios:
                    bw, bh = mn * math.sqrt(ar), mn / math.sqrt(ar)
                    boxes += [(cx - bw / 2) / iw, (cy - bh / 2) / ih, (cx + bw / 2) / iw, (cy + bh / 2) / ih]
                    if flip:  # Tengine's flipped box: x over the image height, y over the width
                        boxes += [(cx - bh / 2) / ih, (cy - bw / 2) / iw, (cx + bh / 2) / ih, (cy + bw / 2) / iw]
    if clip:
        boxes = [min(max(v, 0.0), 1.0) for v in boxes]
    return boxes + variance * (len(boxes) // 4)


@pytest.mark.parametrize(("maxs", "ratios", "flip", "clip"), [([], [], 0, 0), ([60.0], [2.0], 1, 0),
                                                               ([60.0], [2.0, 3.0], 1, 1), ([], [0.5], 0, 1)])
def test_prior_box_matches_loops(maxs: list[float], ratios: list[float], flip: int, clip: int) -> None:
    feature, image = np.zeros((2, 4, 3, 5), np.float32), np.zeros((2, 3, 30, 60), np.float32)
    variance = [0.1, 0.1, 0.2, 0.2]
    (y,) = tengine_run("PriorBox", [feature, image], min_size=[20.5], max_size=maxs, variance=variance,
                       aspect_ratio=ratios, flip=flip, clip=clip)
    want = _naive_priors(3, 5, 30, 60, [20.5], maxs, ratios, flip, clip, variance)
    for n in range(2):
        np.testing.assert_allclose(y[n].reshape(-1), want, rtol=1e-5, atol=1e-6)
