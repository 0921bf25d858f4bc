"""Tengine Bias: a per-channel bias added to NCHW data."""

from __future__ import annotations

import numpy as np

from tests.helpers import kernel, tengine_problems, tengine_run

RNG = np.random.default_rng(20240602)
bias = kernel("tengine", "Bias")


def test_bias_is_per_channel() -> None:
    x, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal(3)
    (added,) = bias(x, b)
    for n, c, h, w in np.ndindex(*x.shape):
        assert added[n, c, h, w] == x[n, c, h, w] + b[c]


def test_a_bias_of_another_shape_gives_its_first_channel_values() -> None:
    """Tengine's kernel reads bias[c] of whatever it is given: the Caffe converter's test model stores a [3, 224] bias
    for 3 channels."""
    x, b = RNG.standard_normal((1, 3, 2, 2)).astype(np.float32), RNG.standard_normal((3, 4)).astype(np.float32)
    (y,) = tengine_run("Bias", [x, b], bias_size=2)
    np.testing.assert_array_equal(y, x + b.reshape(-1)[:3].reshape(1, 3, 1, 1))
    assert "bias_c1" in tengine_problems("Bias", [x, b[:1, :2]])
