"""Tengine Permute: axes reordered by order0 .. order3 (order3 ignored for 3-D data)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("order", [(0, 2, 3, 1), (0, 3, 1, 2), (3, 2, 1, 0), (1, 0, 2, 3)])
def test_permute_4d(order: tuple[int, int, int, int]) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    (y,) = tengine_run("Permute", [x], order0=order[0], order1=order[1], order2=order[2], order3=order[3])
    for idx in np.ndindex(*y.shape):
        src = [0] * 4
        for out_axis, in_axis in enumerate(order):
            src[in_axis] = idx[out_axis]
        assert y[idx] == x[tuple(src)]


def test_permute_3d_ignores_order3() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    (y,) = tengine_run("Permute", [x], order0=1, order1=0, order2=2, order3=3)
    np.testing.assert_array_equal(y, x.transpose(1, 0, 2))
