"""Tengine SoftMax: exp(x) / sum(exp(x)) along any axis; an axis out of range is reported."""

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
    assert tengine_problems("SoftMax", [x], axis=3) == ["softmax_c1"]
