"""ai.onnx.modified UpSampling2D: Keras's NHWC nearest upsampling, each row and column repeated."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)


@pytest.mark.parametrize("size", [(2, 2), (1, 3), (3, 1)])
def test_upsampling2d_is_repeat(size: tuple[int, int]) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    (y,) = kernel("ai.onnx.modified", "UpSampling2D")(x, size=list(size))
    np.testing.assert_array_equal(y, np.repeat(np.repeat(x, size[0], axis=1), size[1], axis=2))
