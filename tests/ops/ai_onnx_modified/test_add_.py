"""ai.onnx.modified Add_: a bias added along the last axis; other bias lengths are refused."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)
add_ = kernel("ai.onnx.modified", "Add_")


def test_add__adds_bias_on_last_axis() -> None:
    a = RNG.standard_normal((2, 3, 4, 5)).astype(np.float64)
    b = RNG.standard_normal(5)
    (y,) = add_(a, b)
    for c in range(5):
        np.testing.assert_array_equal(y[..., c], a[..., c] + b[c])
    with pytest.raises(ValueError, match="Add_"):
        add_(a, np.ones(4))
