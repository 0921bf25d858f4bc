"""Tengine Transpose: every permutation of a 4-D input; a repeated axis is reported."""

from __future__ import annotations

import itertools

import numpy as np

from tests.helpers import tengine_problems, tengine_run

RNG = np.random.default_rng(20240611)


def test_transpose_every_permutation() -> None:
    x = RNG.standard_normal((2, 3, 4, 1))
    for perm in itertools.permutations(range(4)):
        (y,) = tengine_run("Transpose", [x], perm=list(perm))
        for idx in itertools.product(*[range(d) for d in y.shape]):
            src = [0] * 4
            for i, p in enumerate(perm):
                src[p] = idx[i]
            assert y[idx] == x[tuple(src)]
    assert "transpose_c2" in tengine_problems("Transpose", [x], perm=[0, 1, 1, 2])
