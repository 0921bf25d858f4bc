"""Tengine Max: the elementwise largest of its inputs, which must share one shape."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel, tengine_run

RNG = np.random.default_rng(20240611)


def _combine(*v: float) -> float:
    return max(v)


@pytest.mark.parametrize("count", [1, 2, 4])
def test_max_of_the_inputs(count: int) -> None:
    xs = [RNG.standard_normal((2, 3, 2)).astype(np.float32) for _ in range(count)]
    (y,) = tengine_run("Max", xs)
    want = np.array([_combine(*(float(x.flat[i]) for x in xs)) for i in range(xs[0].size)]).reshape(xs[0].shape)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="Max"):
        kernel("tengine", "Max")(xs[0], np.zeros((3, 2), np.float32))
