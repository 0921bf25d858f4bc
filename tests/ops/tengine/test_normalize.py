"""Tengine Normalize: SSD's L2 normalisation across channels or the whole map, then a scale."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("spatial", "shared"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_normalize_matches_ssd_loops(spatial: int, shared: int) -> None:
    x = RNG.standard_normal((2, 3, 2, 2)).astype(np.float64)
    scale = RNG.uniform(1, 2, 1 if shared else 3)
    (y,) = tengine_run("Normalize", [x, scale], across_spatial=spatial, channel_shared=shared)
    want = np.empty_like(x)
    for n, c, h, w in np.ndindex(*x.shape):
        cells = [x[n, j, a, b] for j in range(3) for a in range(2) for b in range(2)] if spatial else \
            [x[n, j, h, w] for j in range(3)]
        want[n, c, h, w] = x[n, c, h, w] / math.sqrt(sum(v * v for v in cells)) * scale[0 if shared else c]
    np.testing.assert_allclose(y, want, rtol=1e-10)
