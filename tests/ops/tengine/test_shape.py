"""Tengine Shape: the input's shape as int32."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240611)


def test_shape_is_int32() -> None:
    a = RNG.standard_normal((2, 3, 2, 2))
    (s,) = kernel("tengine", "Shape")(a)
    assert s.dtype == np.int32 and s.tolist() == [2, 3, 2, 2]
