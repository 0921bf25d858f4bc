"""Tengine SoftMax: exp(x) / sum(exp(x)) along any axis; an axis past the rank is the last (Tengine 1.x), one below
-rank is reported."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_problems, tengine_run

RNG = np.random.default_rng(20240611)


def test_softmax_matches_loops() -> None:
    x = RNG.standard_normal((2, 3, 4))
    for axis in (0, 1, 2, -1, -3):
        (y,) = tengine_run("SoftMax", [x], axis=axis)
        ax = axis % 3
        lines_in = np.moveaxis(x, ax, -1).reshape(-1, x.shape[ax])
        lines_out = np.moveaxis(y, ax, -1).reshape(-1, x.shape[ax])
        for line_in, line_out in zip(lines_in.tolist(), lines_out.tolist(), strict=True):
            row = [math.exp(v) for v in line_in]
            assert line_out == pytest.approx([v / sum(row) for v in row], rel=1e-12)
    assert tengine_problems("SoftMax", [x], axis=-4) == ["softmax_c1"]


def test_an_axis_past_the_rank_is_the_last() -> None:
    """OAID's TFLite mobilenets store axis 3 (NHWC's channels) for the softmax of [1, 1001]: Tengine 1.x's kernel
    takes the last axis."""
    x = RNG.standard_normal((2, 5)).astype(np.float32)
    (y,) = tengine_run("SoftMax", [x], axis=3)
    (last,) = tengine_run("SoftMax", [x], axis=1)
    np.testing.assert_array_equal(y, last)
    assert tengine_problems("SoftMax", [x], axis=3) == []
