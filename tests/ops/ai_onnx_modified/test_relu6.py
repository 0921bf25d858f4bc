"""ai.onnx.modified Relu6: clip(x, 0, 6) in the input's float type."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu6_is_clip_0_6(dtype: type) -> None:
    x: np.ndarray = (RNG.standard_normal((3, 4, 5)) * 8).astype(dtype)
    (y,) = kernel("ai.onnx.modified", "Relu6")(x)
    assert y.dtype == x.dtype
    np.testing.assert_array_equal(y, np.clip(x, 0, 6))
