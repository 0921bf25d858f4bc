"""Tengine FullyConnected: the input flattened to rows, times the transposed weight, plus bias."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)


@pytest.mark.parametrize("shape", [(3, 8), (3, 2, 4), (3, 2, 2, 2)])
def test_fully_connected_flattens_and_transposes(shape: tuple[int, ...]) -> None:
    x, w, b = RNG.standard_normal(shape), RNG.standard_normal((5, 8)), RNG.standard_normal(5)
    (y,) = kernel("tengine", "FullyConnected")(x, w, b, num_output=5)
    want = np.array([[sum(x.reshape(3, 8)[i, k] * w[j, k] for k in range(8)) + b[j] for j in range(5)]
                     for i in range(3)])
    assert y.shape == (3, 5) + (1,) * (len(shape) - 2)
    np.testing.assert_allclose(y.reshape(3, 5), want, rtol=1e-12)
