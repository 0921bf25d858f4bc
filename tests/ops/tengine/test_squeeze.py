"""Tengine Squeeze: dims named in TensorFlow's numbering removed when they are 1."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("shape", "attrs", "want"), [
    ((1, 3, 1, 2), {}, (3, 2)),
    ((1, 3, 1, 2), {"dim_0": 0}, (3, 1, 2)),
    ((1, 3, 1, 2), {"dim_0": 1, "dim_1": 0}, (3, 2)),
    ((1, 1, 4, 1), {"dim_0": 3}, (1, 4, 1)),
    ((2, 3, 4, 5), {"dim_0": 2}, (2, 3, 4, 5)),
])
def test_squeeze_reads_tensorflow_numbering(shape: tuple[int, ...], attrs: dict[str, int],
                                            want: tuple[int, ...]) -> None:
    x = RNG.standard_normal(shape)
    (y,) = tengine_run("Squeeze", [x], **attrs)
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))
