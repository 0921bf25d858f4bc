"""Tengine Gather: ONNX's gather along an axis, and the older indices_num form."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Gather", 1)
gather = kernel("tengine", "Gather")


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_gather_onnx_and_indices_num(axis: int) -> None:
    x = RNG.standard_normal((3, 4, 5))
    idx = np.array([[2, 0], [1, 1]], np.int32)
    (y,) = gather(x, idx, axis=axis, is_onnx=1)
    want_shape = [*x.shape[:axis], 2, 2, *x.shape[axis + 1:]]
    assert list(y.shape) == want_shape == formula_shapes(V, [x, idx], {"axis": axis, "is_onnx": 1})[0]
    for out_idx in np.ndindex(*y.shape):
        src = (*out_idx[:axis], idx[out_idx[axis], out_idx[axis + 1]], *out_idx[axis + 2:])
        assert y[out_idx] == x[src]
    (first,) = gather(x, idx, axis=axis, indices_num=3)
    assert first.shape[axis] == 3
    np.testing.assert_array_equal(np.take(first, 2, axis=axis), np.take(x, 1, axis=axis))
    with pytest.raises(ValueError, match="indices"):
        gather(x, np.array([-1], np.int32), axis=axis, is_onnx=1)
