"""Tengine SquaredDifference: (a - b)^2 of same-shaped inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel, pointwise

RNG = np.random.default_rng(20240611)
squared_difference = kernel("tengine", "SquaredDifference")


def test_squared_difference_of_same_shapes() -> None:
    a, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal((2, 3, 2, 2))
    np.testing.assert_allclose(squared_difference(a, b)[0], pointwise(lambda v: v, (a - b) * (a - b)))
    with pytest.raises(ValueError, match="differ"):
        squared_difference(a, b[:1])
