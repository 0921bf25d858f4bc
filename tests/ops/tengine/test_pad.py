"""Tengine Pad: constant, edge and reflect padding of N, C, H and W; unset pads are refused."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel, tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_pad_matches_loops(mode: int) -> None:
    x = RNG.standard_normal((2, 2, 3, 4)).astype(np.float32)
    pads = {"pad_c_0": 1, "pad_c_1": 2, "pad_h_0": 2, "pad_h_1": 1, "pad_w_0": 1, "pad_w_1": 3}
    (y,) = tengine_run("Pad", [x], mode=mode, value=-7.0, **pads)

    def source(i: int, size: int) -> int | None:
        if 0 <= i < size:
            return i
        if mode == 0:
            return None
        if mode == 1:
            return min(max(i, 0), size - 1)
        return -i if i < 0 else 2 * (size - 1) - i

    want = np.full((2, 5, 6, 8), -7.0, np.float32)
    for n, c, i, j in np.ndindex(2, 5, 6, 8):
        cc = c - 1
        if not 0 <= cc < 2:
            if mode == 0:
                continue
            cc = min(max(cc, 0), 1)
        r, q = source(i - 2, 3), source(j - 1, 4)
        if r is not None and q is not None:
            want[n, c, i, j] = x[n, cc, r, q]
    np.testing.assert_array_equal(y, want)
    with pytest.raises(ValueError, match="set"):
        kernel("tengine", "Pad")(x)  # the schema's default pads are -1: unset
