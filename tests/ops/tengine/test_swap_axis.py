"""Tengine SwapAxis: two axes exchanged, transcribed from Tengine's five-dimension loop."""

from __future__ import annotations

import itertools
import math

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_swap_axis_transcribes_tengine() -> None:
    x = RNG.standard_normal((2, 3, 4, 1))
    for d0, d1 in ((0, 1), (2, 0), (1, 3)):
        (y,) = tengine_run("SwapAxis", [x], dim_0=d0, dim_1=d1)
        lo, hi = min(d0, d1), max(d0, d1)
        dims = [math.prod(x.shape[:lo]), x.shape[lo], math.prod(x.shape[lo + 1:hi]), x.shape[hi],
                math.prod(x.shape[hi + 1:])]
        flat_in, want = x.reshape(-1), np.empty(x.size)
        for i, j, p, q in itertools.product(range(dims[0]), range(dims[3]), range(dims[2]), range(dims[1])):
            out = i * dims[1] * dims[2] * dims[3] * dims[4] + j * dims[2] * dims[1] * dims[4] + p * dims[1] * dims[4] \
                + q * dims[4]
            src = i * dims[1] * dims[2] * dims[3] * dims[4] + q * dims[2] * dims[3] * dims[4] + p * dims[3] * dims[4] \
                + j * dims[4]
            want[out:out + dims[4]] = flat_in[src:src + dims[4]]
        np.testing.assert_array_equal(y.reshape(-1), want)
