"""Tengine Scatter: ONNX's ScatterElements (onnx.reference); the non-ONNX form is refused."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel, one_node_model, run_onnx_reference, tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_scatter_matches_onnx_scatter_elements(axis: int) -> None:
    data = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    ax = axis % 3
    upd_shape = [2, 3, 4]
    # distinct targets along the axis for every line, so the order of writes does not matter
    draw = RNG.random([data.shape[ax] if i == ax else upd_shape[i] for i in range(3)])
    indices = np.take(np.argsort(draw, axis=ax), range(upd_shape[ax]), axis=ax)
    updates = RNG.standard_normal(upd_shape).astype(np.float32)
    (y,) = tengine_run("Scatter", [data, indices.astype(np.int32), updates], axis=axis, is_onnx=1)
    model, feeds = one_node_model("ScatterElements", 13, [data, indices.astype(np.int64), updates], {"axis": axis}, 1)
    np.testing.assert_array_equal(y, run_onnx_reference(model, feeds)[0])
    with pytest.raises(ValueError, match="ONNX"):
        kernel("tengine", "Scatter")(data, indices.astype(np.int32), updates, axis=axis, is_onnx=0)
