"""SwiGLU: the kernel against onnx.reference, the shape formula against onnx, unequal shapes rejected."""

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

OP = "SwiGLU"
data = Seeded(2010)
A, B = data.f32(2, 3, 4) * 3, data.f32(2, 3, 4)

CASES = [
    OracleCase(OP, {}, [A, B], all_since(OP), id="default"),
    OracleCase(OP, dict(alpha=1.702), [A, B], all_since(OP), id="alpha"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 28, [[2, 3, 4], [2, 3, 4]]), shape_case(OP, 28, [[], []])]
# no broadcasting: B must have A's shape exactly
REJECTED = [(shape_case(OP, 28, [[2, 3, 4], [2, 3, 1]]), "binding"),
            (shape_case(OP, 28, [[2, 3], [3]]), "binding")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
