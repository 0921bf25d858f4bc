"""Tengine Reduction: the eleven reduction types over dim_0 .. dim_3 (-2: unused)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)

_REDUCE_ONE: dict[int, Callable[[list[float]], float]] = {
    0: sum, 1: lambda v: sum(v) / len(v), 2: lambda v: sum(abs(a) for a in v), 3: lambda v: sum(a * a for a in v),
    4: max, 5: min, 6: math.prod, 7: lambda v: sum(abs(a) for a in v), 8: lambda v: math.sqrt(sum(a * a for a in v)),
    9: lambda v: math.log(sum(v)), 10: lambda v: math.log(sum(math.exp(a) for a in v)),
}


@pytest.mark.parametrize("op_type", sorted(_REDUCE_ONE))
@pytest.mark.parametrize(("dims", "keepdim"), [((-2, -2, -2, -2), 0), ((1, -2, -2, -2), 1), ((0, -1, -2, -2), 0),
                                               ((2, 1, -2, -2), 1)])
def test_reduction(op_type: int, dims: tuple[int, int, int, int], keepdim: int) -> None:
    x = RNG.uniform(0.5, 1.5, (2, 3, 2))
    (y,) = tengine_run("Reduction", [x], dim_0=dims[0], dim_1=dims[1], dim_2=dims[2], dim_3=dims[3], type=op_type,
                       keepdim=keepdim)
    axes = {d % 3 for d in dims if d != -2} or {0, 1, 2}
    kept = [i for i in range(3) if i not in axes]
    groups: dict[tuple[int, ...], list[float]] = {}
    for idx in np.ndindex(*x.shape):
        groups.setdefault(tuple(idx[i] for i in kept), []).append(float(x[idx]))
    want = [_REDUCE_ONE[op_type](groups[key]) for key in sorted(groups)]
    np.testing.assert_allclose(y.reshape(-1), want, rtol=1e-12)
