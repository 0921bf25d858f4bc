"""PRelu: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

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

OP = "PRelu"
f32 = Seeded(1234).f32
X = f32(3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X, f32(5)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, {}, [f32(2, 3, 4, 4), f32(3, 1, 1)], all_since(OP, 7), id="channel"),
    OracleCase(OP, {}, [X, f32(3, 4, 5)], all_since(OP), id="same"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (7, 9, 16)
SHAPES = [shape_case(OP, opset, shapes) for opset in OPSETS for shapes in ([[2, 3, 4], [3, 1]], [[2, 3], [1]])]
REJECTED = [(shape_case(OP, opset, shapes), "prelu_c1") for opset in OPSETS
            for shapes in ([[2, 3], [2]], [[3], [2, 3]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
