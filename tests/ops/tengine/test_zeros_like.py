"""Tengine ZerosLike: zeros of the input's shape."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240611)


def test_zeros_like_is_all_zero() -> None:
    a = RNG.standard_normal((2, 3, 2, 2))
    assert not kernel("tengine", "ZerosLike")(a)[0].any()
