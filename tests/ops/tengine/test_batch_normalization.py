"""Tengine BatchNormalization: per-channel normalisation, rescaled stats, Caffe flavour."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240602)
batch_normalization = kernel("tengine", "BatchNormalization")


@pytest.mark.parametrize(("rescale", "caffe"), [(1.0, 0), (4.0, 0), (0.5, 1), (0.0, 0)])
def test_batch_normalization_per_channel(rescale: float, caffe: int) -> None:
    x = RNG.standard_normal((2, 3, 2, 2))
    gamma, beta, mean = RNG.standard_normal(3), RNG.standard_normal(3), RNG.standard_normal(3)
    var = RNG.uniform(0.5, 2, 3)
    (y,) = batch_normalization(x, gamma, beta, mean, var, rescale_factor=rescale, eps=1e-3, caffe_flavor=caffe)
    r = 0.0 if rescale == 0 else 1 / rescale
    want = np.empty_like(x)
    for n, c, h, w in np.ndindex(*x.shape):
        v = (x[n, c, h, w] - mean[c] * r) / math.sqrt(var[c] * r + 1e-3)
        want[n, c, h, w] = v if caffe else gamma[c] * v + beta[c]
    np.testing.assert_allclose(y, want, rtol=1e-10)
