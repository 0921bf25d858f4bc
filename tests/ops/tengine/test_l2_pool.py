"""Tengine L2Pool: TFLite's NHWC L2 pooling, VALID or SAME padding, against loops."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def _naive_l2pool(x: np.ndarray, k: int, s: int, same: bool) -> np.ndarray:
    n, h, w, c = x.shape
    oh = -(-h // s) if same else (h - k) // s + 1
    ow = -(-w // s) if same else (w - k) // s + 1
    ph = max(0, int(((oh - 1) * s + k - h) / 2)) if same else 0
    pw = max(0, int(((ow - 1) * s + k - w) / 2)) if same else 0
    y = np.zeros((n, oh, ow, c))
    for b, i, j, ch in np.ndindex(n, oh, ow, c):
        cells = [x[b, r, q, ch] for r in range(max(0, i * s - ph), min(h, i * s - ph + k))
                 for q in range(max(0, j * s - pw), min(w, j * s - pw + k))]
        total = sum(v * v for v in cells)
        y[b, i, j, ch] = 0 if total == 0 else math.sqrt(total / len(cells))
    return y


@pytest.mark.parametrize(("k", "s", "padding"), [(2, 2, 0), (3, 1, 2), (3, 2, 1), (2, 1, 1), (1, 2, 1)])
def test_l2_pool_matches_loops(k: int, s: int, padding: int) -> None:
    x = RNG.standard_normal((2, 5, 6, 3))
    (y,) = tengine_run("L2Pool", [x], paddingType=padding, kernel_h=k, kernel_w=k, stride_h=s, stride_w=s)
    np.testing.assert_allclose(y, _naive_l2pool(x, k, s, padding == 1), rtol=1e-12)
