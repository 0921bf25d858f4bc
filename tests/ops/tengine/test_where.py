"""Tengine Where: x where the condition is nonzero, else y, in the condition's shape."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240611)


def test_where_picks_by_condition() -> None:
    a, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal((2, 3, 2, 2))
    cond = RNG.choice([0.0, 1.0, -2.0], (6,))
    (w,) = kernel("tengine", "Where")(cond.reshape(2, 3), a.reshape(-1)[:6], b.reshape(-1)[:6])
    assert w.shape == (2, 3)
    assert w.reshape(-1).tolist() == [a.reshape(-1)[i] if cond[i] else b.reshape(-1)[i] for i in range(6)]
