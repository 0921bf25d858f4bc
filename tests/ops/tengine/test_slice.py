"""Tengine Slice: the Caffe, MXNet, ONNX and TensorFlow flavours; an empty ONNX range is reported."""

from __future__ import annotations

import numpy as np

from tests.helpers import consecutive_pieces, tengine_problems, tengine_run

RNG = np.random.default_rng(20240611)


def test_slice_flavours() -> None:
    x = RNG.standard_normal((3, 7, 4))
    parts = tengine_run("Slice", [x], iscaffe=1, axis=1, slice_points=[2, 3, 6])
    for got, want in zip(parts, consecutive_pieces(x, 1, [2, 1, 3, 1]), strict=True):
        np.testing.assert_array_equal(got, want)
    (m,) = tengine_run("Slice", [x], ismxnet=1, axis=-1, begin=1, end=3)
    np.testing.assert_array_equal(m, np.take(x, [1, 2], axis=2))
    for begin, end, step, want_idx in ((1, 5, 1, [1, 2, 3, 4]), (1, 100, 3, [1, 4]), (0, -2, 2, [0, 2, 4]),
                                       (2, 0, 1, [2, 3, 4, 5, 6])):
        (o,) = tengine_run("Slice", [x], isonnx=1, axis=1, begin=begin, end=end, step=step)
        np.testing.assert_array_equal(o, np.take(x, want_idx, axis=1))
    (t,) = tengine_run("Slice", [x], begins=[1, 2, 0], sizes=[2, -1, 3])
    np.testing.assert_array_equal(t, np.array([[[x[i, j, k] for k in range(3)] for j in range(2, 7)] for i in (1, 2)]))
    assert tengine_problems("Slice", [x], isonnx=1, axis=1, begin=3, end=3) == ["slice_c4"]
