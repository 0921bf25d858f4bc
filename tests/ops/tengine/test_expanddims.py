"""Tengine Expanddims: a 1 inserted at an axis, the data unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Expanddims", 1)
expanddims = kernel("tengine", "Expanddims")


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_expanddims_inserts_a_1(axis: int) -> None:
    x = RNG.standard_normal((2, 3))
    (y,) = expanddims(x, axis=axis)
    want = list(x.shape)
    want.insert(axis, 1)
    assert list(y.shape) == want == formula_shapes(V, [x], {"axis": axis})[0]
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))
