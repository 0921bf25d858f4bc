"""Tengine ShuffleChannel: ShuffleNet's channel shuffle, transcribed from Tengine."""

from __future__ import annotations

import itertools

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_shuffle_channel_transcribes_tengine() -> None:
    x = RNG.standard_normal((2, 6, 2, 3))
    for group in (1, 2, 3, 6):
        (y,) = tengine_run("ShuffleChannel", [x], group=group)
        want = np.empty_like(x)
        per = 6 // group
        for n, i, j in itertools.product(range(2), range(group), range(per)):
            want[n, group * j + i] = x[n, per * i + j]
        np.testing.assert_array_equal(y, want)
