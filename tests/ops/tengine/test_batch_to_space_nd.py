"""Tengine BatchToSpaceND: batch entries moved back into NHWC blocks, then cropped."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "BatchToSpaceND", 1)
batch_to_space_nd = kernel("tengine", "BatchToSpaceND")


@pytest.mark.parametrize(("dx", "dy", "crops"), [(2, 2, (0, 0, 0, 0)), (3, 1, (0, 0, 1, 2)), (1, 2, (1, 0, 0, 0))])
def test_batch_to_space_nd_matches_tengine_loop(dx: int, dy: int, crops: tuple[int, int, int, int]) -> None:
    x = RNG.standard_normal((2 * dx * dy, 2, 3, 2))
    top, bottom, left, right = crops
    attrs: dict[str, Any] = {"dilation_x": dx, "dilation_y": dy, "crop_top": top, "crop_bottom": bottom,
                             "crop_left": left, "crop_right": right}
    (y,) = batch_to_space_nd(x, **attrs)
    out_n, out_h, out_w = 2, 2 * dy - top - bottom, 3 * dx - left - right
    want = np.full((out_n, out_h, out_w, 2), np.nan)
    for b in range(x.shape[0]):  # transcribed from ref_batchtospacend_fp32
        offset = b // out_n
        for h in range(2):
            oh = h * dy + offset // dx - top
            for w in range(3):
                ow = w * dx + offset % dx - left
                if 0 <= oh < out_h and 0 <= ow < out_w:
                    want[b % out_n, oh, ow] = x[b, h, w]
    np.testing.assert_array_equal(y, want)
    assert formula_shapes(V, [x], attrs) == [list(y.shape)]
