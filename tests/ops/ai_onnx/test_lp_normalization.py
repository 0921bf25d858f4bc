"""LpNormalization: the kernel against onnx.reference (p = 2, and p = 1 on non-negative data) and onnxruntime (p = 1
with negative values, which onnx.reference sums without the absolute value), zero norms, shapes, rejected nodes."""

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

OP = "LpNormalization"
f32 = Seeded(1234).f32
ALL = all_since(OP)
X = f32(3, 4, 5)
ZERO_ROW = np.array([[0, 0, 0], [1, -2, 2]], np.float32)

CASES = [
    OracleCase(OP, {}, [X], ALL, id="l2_last"),
    OracleCase(OP, dict(axis=0), [X], ALL, id="l2_axis0"),
    OracleCase(OP, dict(p=1, axis=1), [np.abs(X)], ALL, id="l1_nonnegative"),
    OracleCase(OP, dict(p=1, axis=-2), [X], ALL, oracle="ort", id="l1_signed"),
    OracleCase(OP, dict(axis=1), [ZERO_ROW], ALL, oracle="ort", id="zero_norm"),
    OracleCase(OP, {}, [X.astype(np.float64)], ALL, id="double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[3, 4, 5]], attrs) for opset in ALL for attrs in ({}, {"axis": 0, "p": 1})]

REJECTED = [
    (shape_case(OP, 1, [[3, 4]], {"axis": 2}), "lpnormalization_c1"),
    (shape_case(OP, 22, [[3, 4]], {"p": 3}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
