"""Tengine Reorg: darknet's reorg (space to depth) and its channel constraint."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import inferred, tengine_run, version

RNG = np.random.default_rng(20240611)
V = version("tengine", "Reorg", 1)


@pytest.mark.parametrize("stride", [1, 2, 3])
def test_reorg_matches_darknet_loop(stride: int) -> None:
    n, c, h, w = 2, 2 * stride * stride, 2 * stride, 3 * stride
    x = RNG.standard_normal((n, c, h, w)).astype(np.float32)
    (y,) = tengine_run("Reorg", [x], stride=stride)
    flat_in, flat_out = x.reshape(-1), np.empty(x.size, np.float32)
    out_c = c // (stride * stride)
    for b, k, j, i in np.ndindex(n, c, h, w):  # darknet's reorg_cpu(forward = 0), verbatim
        in_index = i + w * (j + h * (k + c * b))
        c2, offset = k % out_c, k // out_c
        w2, h2 = i * stride + offset % stride, j * stride + offset // stride
        out_index = w2 + w * stride * (h2 + h * stride * (c2 + out_c * b))
        flat_out[in_index] = flat_in[out_index]
    np.testing.assert_array_equal(y.reshape(-1), flat_out)


def test_channels_not_divisible_by_stride_squared_are_reported() -> None:
    result = inferred(V, [[1, 3, 4, 4]], {"stride": 2})
    assert [p.check for p in result.problems] == ["reorg_c1"]
