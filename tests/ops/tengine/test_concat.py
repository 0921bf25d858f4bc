"""Tengine Concat: inputs joined along an axis (negative axes count from the end)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Concat", 1)
concat = kernel("tengine", "Concat")


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_concat_joins_along_axis(axis: int) -> None:
    shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]]
    a = axis % 3
    for k, size in enumerate((1, 2, 3)):
        shapes[k][a] = size
    parts = [RNG.standard_normal(s) for s in shapes]
    (y,) = concat(*parts, axis=axis)
    offset = 0
    for p in parts:
        for idx in np.ndindex(*p.shape):
            moved = list(idx)
            moved[a] += offset
            assert y[tuple(moved)] == p[idx]
        offset += p.shape[a]
    assert formula_shapes(V, parts, {"axis": axis}) == [list(y.shape)]
