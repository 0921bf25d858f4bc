"""Tengine Expand: broadcast to a shape given as an input or stored in the attributes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Expand", 1)
expand = kernel("tengine", "Expand")


@pytest.mark.parametrize(("in_shape", "target"), [((1, 3), (2, 3)), ((3, 1), (2, 1, 4)), ((2, 1, 4), (3, 1))])
def test_expand_broadcasts(in_shape: tuple[int, ...], target: tuple[int, ...]) -> None:
    x = RNG.standard_normal(in_shape)
    shape = np.array(target, np.int32)
    (y,) = expand(x, shape)
    out = np.broadcast_shapes(in_shape, target)
    assert y.shape == out
    for idx in np.ndindex(*out):
        src = tuple(0 if d == 1 else i for i, d in zip(idx[len(out) - len(in_shape):], in_shape, strict=True))
        assert y[idx] == x[src]
    assert formula_shapes(V, [x, shape], values={"shape": list(target)}) == [list(out)]
    (stored,) = expand(x, np.zeros(2, np.int32), ex_shape=list(target), dim_num=len(target))
    np.testing.assert_array_equal(stored, y)
