"""ai.onnx.modified LeakyRelu: x, or alpha * x below 0, with TensorFlow's default alpha 0.2."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel, version

RNG = np.random.default_rng(20240601)


def test_leaky_relu_default_alpha_is_tensorflow_0_2() -> None:
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    (y,) = kernel("ai.onnx.modified", "LeakyRelu")(x, alpha=0.2)
    np.testing.assert_allclose(y, np.where(x > 0, x, 0.2 * x), rtol=1e-6)
    v = version("ai.onnx.modified", "LeakyRelu", 1)
    assert v.attributes["alpha"].default == pytest.approx(0.2)
