"""Tengine SparseToDense: values scattered into a default-filled 1-D or 2-D tensor."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import kernel, tengine_problems, tengine_run

sparse_to_dense = kernel("tengine", "SparseToDense")


def test_sparse_to_dense_loops() -> None:
    idx = np.array([4, 0, 2], np.int32)
    (y,) = tengine_run("SparseToDense", [idx, np.array([6], np.int32), np.array([5, 6, 7], np.int32)],
                       output_shape_size0=6, default_value=9)
    want = [9.0] * 6
    for i, v in zip(idx.tolist(), [5, 6, 7], strict=True):
        want[i] = float(v)
    assert y.dtype == np.float32 and y.tolist() == want
    idx2 = np.array([[0, 1], [2, 0], [0, 1]], np.int32)
    (y2,) = sparse_to_dense(idx2, np.zeros((1, 2), np.int32), np.array([1, 2, 3], np.int32), output_shape_size0=3,
                            output_shape_size1=2, default_value=0)
    assert y2.tolist() == [[0, 3], [0, 0], [2, 0]]
    with pytest.raises(ValueError, match="outside"):
        sparse_to_dense(np.array([6], np.int32), np.array([6], np.int32), np.array([1], np.int32),
                        output_shape_size0=6)
    checks = tengine_problems("SparseToDense", [np.array([6], np.int32), np.array([6], np.int32),
                                                np.array([1], np.int32)], output_shape_size0=6)
    assert checks == ["sparsetodense_c5"]
