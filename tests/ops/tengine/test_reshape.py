"""Tengine Reshape: re_shape's special values (0, -1, and MXNet's -2, -3, reverse)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("shape", "re_shape", "flags", "want"), [
    ((2, 3, 4), [0, -1], {"is_onnx": 1}, (2, 12)),
    ((2, 3, 4), [0, -1], {}, (1, 24)),
    ((2, 3, 4), [4, 0, -1], {}, (4, 6)),
    ((2, 3, 4), [-3, -2], {"is_mxnet": 1}, (6, 4)),
    ((2, 3, 4), [0, -2], {"is_mxnet": 1, "reverse": 1}, (4, 3, 2)),
    ((2, 3, 4), [-1], {}, (24,)),
    ((6, 4), [2, -1, 4], {}, (2, 3, 4)),
])
def test_reshape_special_values(shape: tuple[int, ...], re_shape: list[int], flags: dict[str, int],
                                want: tuple[int, ...]) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    (y,) = tengine_run("Reshape", [x], re_shape=re_shape, **flags)
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))
