"""Tengine ReduceL2: the L2 norm over the axes from `axis` to the end."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdim", [0, 1])
def test_reduce_l2(axis: int, keepdim: int) -> None:
    x = RNG.standard_normal((2, 3, 4))
    (y,) = tengine_run("ReduceL2", [x], axis=axis, keepdim=keepdim)
    start = axis % 3
    lead = x.shape[:start]
    want = np.array([math.sqrt(sum(v * v for v in x[idx].flat)) for idx in np.ndindex(*lead)] if lead
                    else [math.sqrt(sum(v * v for v in x.flat))])
    np.testing.assert_allclose(y.reshape(-1), want, rtol=1e-12)
