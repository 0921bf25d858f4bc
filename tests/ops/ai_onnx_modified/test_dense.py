"""ai.onnx.modified Dense: x @ w plus an optional bias."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)


def test_dense_is_matmul_plus_bias() -> None:
    x, w, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 5)), RNG.standard_normal(5)
    fn = kernel("ai.onnx.modified", "Dense")
    np.testing.assert_allclose(fn(x, w, b)[0], x @ w + b, rtol=1e-12)
    np.testing.assert_allclose(fn(x, w)[0], x @ w, rtol=1e-12)
