"""Abs: the kernel against onnx.reference and the shape formula against onnx's shape inference."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    shape_case,
    shape_tests,
)

OP = "Abs"
f32 = Seeded(1234).f32

CASES = [OracleCase(OP, {}, [f32(3, 4, 5)], all_since(OP))]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[]]),
    shape_case(OP, 13, [[2, 1, 4]]),
    shape_case(OP, 1, [[2, 3]], {}, not_inferred_by_onnx={0: [2, 3]}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
