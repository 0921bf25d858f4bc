"""Trilu: the kernel against onnx.reference (both triangles, k either sign, batches, bool), the shape formula against
onnx, a rank-1 input."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "Trilu"
RAND = Seeded(1234)
X = RAND.f32(2, 3, 4)

CASES = [
    OracleCase(OP, {}, [X], (14,), id="upper"),
    OracleCase(OP, {}, [X, np.array(-1, np.int64)], (14,), id="upper_k_neg"),
    OracleCase(OP, dict(upper=0), [X, np.array(2, np.int64)], (14,), id="lower_k"),
    OracleCase(OP, dict(upper=0), [RAND.ints(-5, 5, (4, 3), np.int32), np.array(-7, np.int64)], (14,),
               id="lower_all_gone"),
    OracleCase(OP, {}, [np.ones((3, 3), np.bool_), np.array(1, np.int64)], (14,), id="bool"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 14, inputs, attrs) for inputs in ([[3, 4]], [[2, 0, 5]], [[2, 3, 4], np.array(1, np.int64)])
          for attrs in ({}, {"upper": 0})]
REJECTED = [(shape_case(OP, 14, [[4]]), "rank"), (shape_case(OP, 14, [[3, 3]], {"upper": 2}), "attr_allowed")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
