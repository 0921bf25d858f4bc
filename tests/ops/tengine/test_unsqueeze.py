"""Tengine Unsqueeze: 1s inserted at the positions `axises` names."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("axises", "want"), [
    ([0], (1, 2, 3)), ([2], (2, 3, 1)), ([-1], (2, 1, 3)), ([-2], (1, 2, 3)), ([0, 3], (1, 2, 3, 1)),
    ([1, 2], (2, 1, 1, 3)),
])
def test_unsqueeze_positions(axises: list[int], want: tuple[int, ...]) -> None:
    x = RNG.standard_normal((2, 3))
    (y,) = tengine_run("Unsqueeze", [x], axises=axises)
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))
