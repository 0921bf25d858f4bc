"""Tengine BroadMul: NCHW data times a per-channel factor; other shapes are rejected."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import inferred, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "BroadMul", 1)
broadmul = kernel("tengine", "BroadMul")


def test_broadmul_is_per_channel() -> None:
    x, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal(3)
    (scaled,) = broadmul(x, b.reshape(1, 3, 1, 1))
    for n, c, h, w in np.ndindex(*x.shape):
        assert scaled[n, c, h, w] == x[n, c, h, w] * b[c]
    with pytest.raises(ValueError, match="BroadMul"):
        broadmul(x, np.ones(2))
    assert inferred(V, [[2, 3, 2, 2], [2]]).problems
