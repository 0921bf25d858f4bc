"""Tengine Split: ONNX, TensorFlow and Caffe splits into parts; sizes that do not add up are reported."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import consecutive_pieces, tengine_problems, tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("attrs", "axis", "sizes"), [
    ({"is_onnx": 1, "axis": 1, "split_sizes": [1, 3, 2]}, 1, [1, 3, 2]),
    ({"is_onnx": 1, "axis": 2, "split_dim": 2}, 2, [2, 2]),
    ({"axis": 2, "split_dim": 2}, 0, [2, 2]),
    ({"is_onnx": 0, "axis": 1, "split_sizes": [3, 1]}, 0, [3, 1]),
])
def test_split_parts(attrs: dict[str, Any], axis: int, sizes: list[int]) -> None:
    x = RNG.standard_normal((4, 6, 4))
    parts = tengine_run("Split", [x], **attrs)
    assert len(parts) == len(sizes)
    for got, want in zip(parts, consecutive_pieces(x, axis, sizes), strict=True):
        np.testing.assert_array_equal(got, want)


def test_split_caffe_copies() -> None:
    x = RNG.standard_normal((2, 3))
    parts = tengine_run("Split", [x], is_caffe=1, split_dim=3, axis=1, split_sizes=[1, 2])
    assert len(parts) == 3 and all(np.array_equal(p, x) for p in parts)
    assert tengine_problems("Split", [x], is_onnx=1, axis=1, split_sizes=[1, 1]) == ["split_c2"]
