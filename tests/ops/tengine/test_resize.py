"""Tengine Resize: nearest resampling, scale_x on the rows and scale_y on the columns."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("sx", "sy"), [(2.0, 2.0), (1.5, 3.0), (0.5, 1.0)])
def test_resize_is_nearest_with_scale_x_on_rows(sx: float, sy: float) -> None:
    x = RNG.standard_normal((2, 2, 4, 6)).astype(np.float32)
    (y,) = tengine_run("Resize", [x], scale_x=sx, scale_y=sy, type=1)
    oh, ow = int(4 * sx), int(6 * sy)
    assert y.shape == (2, 2, oh, ow)
    for i, j in np.ndindex(oh, ow):
        np.testing.assert_array_equal(y[:, :, i, j], x[:, :, min(int(i * (1 / sx)), 3), min(int(j * (1 / sy)), 5)])
