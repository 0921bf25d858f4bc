"""MeanVarianceNormalization: the kernel against onnx.reference (the op's function body: default and given axes,
negative axes, a constant slice, half precision), shapes against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "MeanVarianceNormalization"
f32 = Seeded(1234).f32
ALL = all_since(OP)
X = f32(2, 3, 4, 2)

CASES = [
    OracleCase(OP, {}, [X], ALL, id="default_axes"),
    OracleCase(OP, dict(axes=[1, -1]), [X], ALL, id="negative_axis"),
    OracleCase(OP, dict(axes=[0]), [np.array([[1, 2], [1, 5]], np.float32)], ALL, id="constant_slice"),
    OracleCase(OP, dict(axes=[2]), [f32(3, 2, 5)], ALL, id="3d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# onnx's shape inference fails on a version-13 node without axes (its function body's Constant gets no value), so
# the default axes are checked at version 9 only
SHAPES = [shape_case(OP, 9, [[2, 3, 4, 2]])]
SHAPES += [shape_case(OP, opset, [[2, 3, 4, 2]], {"axes": [1, 3]}) for opset in ALL]

REJECTED = [
    (shape_case(OP, 9, [[2, 3, 4]]), "meanvariancenormalization_c1"),
    (shape_case(OP, 13, [[2, 3, 4]], {"axes": [1, -2]}), "meanvariancenormalization_c2"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
