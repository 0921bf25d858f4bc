"""Tengine MatMul: batched matrix products against loops."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 2)), ((2, 2, 3, 4), (2, 2, 4, 3))])
def test_matmul_matches_loops(shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    a, b = RNG.standard_normal(shapes[0]), RNG.standard_normal(shapes[1])
    (y,) = tengine_run("MatMul", [a, b])
    for idx in np.ndindex(*y.shape):
        *batch, i, j = idx
        want = sum(a[(*batch, i, k)] * b[(*batch, k, j)] for k in range(a.shape[-1]))
        assert y[idx] == pytest.approx(want, rel=1e-10, abs=1e-12)
