"""Tengine DepthToSpace: channels moved into blocks in CRD order."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "DepthToSpace", 1)
depth_to_space = kernel("tengine", "DepthToSpace")


@pytest.mark.parametrize("block", [1, 2, 3])
def test_depth_to_space_is_crd(block: int) -> None:
    x = RNG.standard_normal((2, 2 * block * block, 3, 2))
    (y,) = depth_to_space(x, block_size=block)
    for n, s, h, w in np.ndindex(*y.shape):  # transcribed from ref_depthtospace_fp32
        d = s * block * block + (h % block) * block + (w % block)
        assert y[n, s, h, w] == x[n, d, h // block, w // block]
    assert formula_shapes(V, [x], {"block_size": block}) == [list(y.shape)]
