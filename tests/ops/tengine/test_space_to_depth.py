"""Tengine SpaceToDepth: ONNX's SpaceToDepth (onnx.reference)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import one_node_model, run_onnx_reference, tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("block", [1, 2, 3])
def test_space_to_depth_matches_onnx(block: int) -> None:
    x = RNG.standard_normal((2, 3, 6, 12)).astype(np.float32)
    (y,) = tengine_run("SpaceToDepth", [x], block_size=block)
    want = run_onnx_reference(*one_node_model("SpaceToDepth", 13, [x], {"blocksize": block}, 1))[0]
    np.testing.assert_array_equal(y, want)
