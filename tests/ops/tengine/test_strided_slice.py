"""Tengine StridedSlice: begin, end and stride per NCHW axis, transcribed from Tengine's shape rule."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("begin", "end", "stride"), [
    ((0, 0, 0, 0), (0, 0, 0, 0), (1, 1, 1, 1)),
    ((1, 0, 2, 1), (0, -1, 0, -1), (1, 2, 1, 2)),
    ((0, 1, 0, 0), (0, 0, -2, 0), (2, 1, 3, 4)),
])
def test_strided_slice_transcribes_tengine(begin: tuple[int, ...], end: tuple[int, ...],
                                           stride: tuple[int, ...]) -> None:
    x = RNG.standard_normal((2, 4, 5, 6))
    names = ("n", "c", "h", "w")
    attrs = {f"{k}_{a}": v for k, vals in (("begin", begin), ("end", end), ("stride", stride))
             for a, v in zip(names, vals, strict=True)}
    (y,) = tengine_run("StridedSlice", [x], **attrs)
    dims = [max(math.ceil((x.shape[i] - abs(end[i] - begin[i])) / stride[i]), 1) for i in range(4)]
    assert list(y.shape) == dims
    for idx in itertools.product(*[range(d) for d in dims]):
        assert y[idx] == x[tuple(begin[i] + idx[i] * stride[i] for i in range(4))]
