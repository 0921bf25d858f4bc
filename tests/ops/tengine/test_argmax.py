"""Tengine ArgMax: the index (int32) of the first maximum along an axis."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import first_extreme, formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "ArgMax", 1)
argmax = kernel("tengine", "ArgMax")


def _better(a: Any, b: Any) -> bool:
    return bool(a > b)


@pytest.mark.parametrize(("axis", "keepdims"), [(0, 1), (1, 1), (2, 0), (1, 0)])
def test_argmax_takes_the_first_maximum(axis: int, keepdims: int) -> None:
    x = RNG.integers(0, 3, (3, 4, 5)).astype(np.float32)  # many ties
    (y,) = argmax(x, axis=axis, keepdims=keepdims)
    want = first_extreme(x, axis, _better)
    if keepdims:
        want = np.expand_dims(want, axis)
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, want)
    assert formula_shapes(V, [x], {"axis": axis, "keepdims": keepdims}) == [list(y.shape)]
