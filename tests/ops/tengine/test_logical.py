"""Tengine Logical: AND (type 0) and OR (type 1) of nonzero values, the smaller input repeated."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("op_type", [0, 1])
@pytest.mark.parametrize(("sa", "sb"), [((2, 3), (2, 3)), ((6,), (1,)), ((1,), (2, 3)), ((2, 3), (3, 2))])
def test_logical(op_type: int, sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    a = RNG.integers(0, 2, sa).astype(np.float32)
    b = RNG.integers(0, 2, sb).astype(np.float32)
    (y,) = tengine_run("Logical", [a, b], type=op_type)
    fa, fb = a.reshape(-1), b.reshape(-1)
    n = max(fa.size, fb.size)
    want = [float((bool(fa[i % fa.size]) and bool(fb[i % fb.size])) if op_type == 0
                  else (bool(fa[i % fa.size]) or bool(fb[i % fb.size]))) for i in range(n)]
    assert y.shape == (sa if a.size > b.size else sb)
    np.testing.assert_array_equal(y.reshape(-1), want)
