"""Tengine Prelu: negative values times a per-channel (axis 1) or shared slope."""

from __future__ import annotations

import numpy as np

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


def test_prelu_per_channel_and_shared() -> None:
    for shape in [(3, 4), (2, 4, 5), (2, 4, 3, 3)]:
        x = RNG.standard_normal(shape).astype(np.float32)
        slope = RNG.uniform(0, 1, 4).astype(np.float32)
        (y,) = tengine_run("Prelu", [x, slope])
        want = np.empty_like(x)
        for idx in np.ndindex(*shape):
            v = x[idx]
            want[idx] = v if v > 0 else v * slope[idx[1]]
        np.testing.assert_allclose(y, want, rtol=1e-6)
        (shared,) = tengine_run("Prelu", [x, slope[:1]])
        np.testing.assert_allclose(shared, np.where(x > 0, x, x * slope[0]), rtol=1e-6)
