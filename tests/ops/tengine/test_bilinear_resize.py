"""Tengine BilinearResize: nearest (type 0) or bilinear (type 1) resampling by scales."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "BilinearResize", 1)
bilinear_resize = kernel("tengine", "BilinearResize")


@pytest.mark.parametrize(("sx", "sy", "kind"), [(2.0, 2.0, 0), (0.5, 1.5, 0), (2.0, 3.0, 1), (0.75, 1.0, 1)])
def test_bilinear_resize_against_pointwise_sampling(sx: float, sy: float, kind: int) -> None:
    x = RNG.standard_normal((1, 2, 4, 5))
    (y,) = bilinear_resize(x, scale_x=sx, scale_y=sy, type=kind)
    oh, ow = int(4 * sy), int(5 * sx)
    assert y.shape == (1, 2, oh, ow) and formula_shapes(V, [x], {"scale_x": sx, "scale_y": sy}) == [[1, 2, oh, ow]]

    def sample(c: int, i: int, j: int) -> float:
        if kind == 0:
            return float(x[0, c, min(int(i / sy), 3), min(int(j / sx), 4)])
        fy = min(max((i + 0.5) / sy - 0.5, 0.0), 3.0)
        fx = min(max((j + 0.5) / sx - 0.5, 0.0), 4.0)
        y0, x0 = int(fy), int(fx)
        y1, x1 = min(y0 + 1, 3), min(x0 + 1, 4)
        wy, wx = fy - y0, fx - x0
        return float((1 - wy) * ((1 - wx) * x[0, c, y0, x0] + wx * x[0, c, y0, x1]) +
                     wy * ((1 - wx) * x[0, c, y1, x0] + wx * x[0, c, y1, x1]))

    want = [[[sample(c, i, j) for j in range(ow)] for i in range(oh)] for c in range(2)]
    np.testing.assert_allclose(y[0], want, rtol=1e-12)
