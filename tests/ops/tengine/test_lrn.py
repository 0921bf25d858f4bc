"""Tengine LRN: Caffe's cross-channel local response normalisation."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("local_size", [1, 3, 4, 5])
def test_lrn_matches_caffe_loops(local_size: int) -> None:
    x = RNG.standard_normal((2, 6, 2, 3)).astype(np.float64)
    alpha, beta, k = 0.2, 0.75, 1.5
    (y,) = tengine_run("LRN", [x], local_size=local_size, alpha=alpha, beta=beta, k=k)
    want = np.empty_like(x)
    for n, c, h, w in np.ndindex(*x.shape):
        lo, hi = max(0, c - local_size // 2), min(5, c + local_size // 2)
        s = sum(x[n, j, h, w] ** 2 for j in range(lo, hi + 1))
        want[n, c, h, w] = x[n, c, h, w] * (k + alpha / local_size * s) ** -beta
    np.testing.assert_allclose(y, want, rtol=1e-10)
