"""Tengine Reverse: the data reversed along the axis its second input names."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("axis", [-4, -1, 0, 1, 2, 3])
def test_reverse(axis: int) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    (y,) = tengine_run("Reverse", [x, np.array([axis, 0], np.int32)])
    a = axis % 4
    for idx in np.ndindex(*x.shape):
        src = list(idx)
        src[a] = x.shape[a] - 1 - idx[a]
        assert y[idx] == x[tuple(src)]
