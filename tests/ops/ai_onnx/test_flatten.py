"""Flatten: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Flatten"
X = Seeded(1234).f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, dict(axis=0), [X], all_since(OP), id="axis0"),
    OracleCase(OP, dict(axis=-2), [X], all_since(OP, 11), id="neg"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 1, [[2, 3, 4]]),
    shape_case(OP, 1, [[2, 3, 4]], {"axis": 0}),
    shape_case(OP, 9, [[2, 3, 4]], {"axis": 3}),
    shape_case(OP, 11, [[2, 3, 4]], {"axis": -1}),
    shape_case(OP, 13, [[2, 3, 4, 5]], {"axis": -4}),
    shape_case(OP, 25, [[6]], {"axis": 1}),
]

REJECTED = [
    (shape_case(OP, 1, [[2, 3]], {"axis": -1}), "flatten_c1"),
    (shape_case(OP, 13, [[2, 3]], {"axis": 3}), "flatten_c1"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
