"""MaxRoiPool: the kernel against onnxruntime (onnx.reference has no MaxRoiPool) and a hand-computed bin layout,
the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "MaxRoiPool"
f32 = Seeded(4324).f32
X = f32(2, 3, 6, 7)
ROIS = np.array([[0, 0, 0, 6, 5], [1, 1.4, 2.6, 4.5, 5.5], [1, -2, -1, 9, 8], [0, 5, 4, 2, 1], [1, 3, 3, 3, 3]],
                np.float32)



# onnxruntime implements version 1 in float only: a maximum picks an input value, so float's answer is double's
FLOAT_V1 = OracleCase(OP, dict(pooled_shape=[2, 3], spatial_scale=2.0), [X, ROIS], (1,), oracle="ort")
CASES = [
    OracleCase(OP, dict(pooled_shape=[2, 2]), [X, ROIS], (1,), oracle="ort", id="2x2"),
    OracleCase(OP, dict(pooled_shape=[3, 2], spatial_scale=0.5), [X, ROIS], (1,), oracle="ort", id="scale_half"),
    OracleCase(OP, dict(pooled_shape=[4, 5], spatial_scale=0.625), [X, ROIS], (1,), oracle="ort",
               id="more_bins_than_pixels"),
    OracleCase(OP, dict(pooled_shape=[1, 3]), [X, ROIS], (22,), oracle="ort@1", id="v22"),
    OracleCase(OP, dict(pooled_shape=[2, 3], spatial_scale=2.0), [X.astype(np.float64), ROIS.astype(np.float64)],
               (22,), oracle=lambda: [oracle_outputs(FLOAT_V1, 1)[0].astype(np.float64)], id="v22_double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_bins_by_hand() -> None:
    """A 4x4 image, RoI x 0..2, y 1..3 (3 x 3 pixels), 2 x 2 bins: rows [1, 3) and [2, 4), columns [0, 2) and
    [1, 3) (floor and ceil of 1.5 overlap); the RoI rounds 2.5 up to 3 (half away from zero)."""
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    (y,) = run("ai.onnx", OP, 22, [x, np.array([[0, 0, 1, 2, 2.5]], np.float32)], pooled_shape=[2, 2])
    np.testing.assert_array_equal(y[0, 0], [[9, 10], [13, 14]])


def test_empty_bin_is_zero() -> None:
    """A RoI entirely left of the image: every clipped bin is empty."""
    x = np.full((1, 1, 3, 3), -5.0, np.float32)
    (y,) = run("ai.onnx", OP, 22, [x, np.array([[0, -9, 0, -6, 2]], np.float32)], pooled_shape=[1, 2])
    np.testing.assert_array_equal(y, np.zeros((1, 1, 1, 2), np.float32))


SHAPES = [
    shape_case(OP, 1, [[2, 3, 6, 7], [5, 5]], {"pooled_shape": [2, 2]}),
    shape_case(OP, 22, [[1, 4, 5, 5], [3, 5]], {"pooled_shape": [3, 1], "spatial_scale": 0.5}),
]

REJECTED = [
    (shape_case(OP, 22, [[1, 4, 5, 5], [3, 4]], {"pooled_shape": [3, 1]}), "binding"),
    (shape_case(OP, 22, [[1, 4, 5, 5], [3, 5]], {"pooled_shape": [3]}), "attr_length"),
    (shape_case(OP, 22, [[1, 4, 5, 5], [3, 5]], {"pooled_shape": [3, 0]}), "attr_range"),
    (shape_case(OP, 1, [[2, 4, 5, 5], np.array([[2, 0, 0, 1, 1]], np.float32)], {"pooled_shape": [1, 1]}),
     "maxroipool_c1"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
