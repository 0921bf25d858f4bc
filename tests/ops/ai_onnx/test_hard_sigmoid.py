"""HardSigmoid: the kernel against onnx.reference, the shape formula against onnx's shape inference."""

from __future__ import annotations

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "HardSigmoid"
X = Seeded(2002).f32(3, 4, 5) * 4

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="defaults"),
    OracleCase(OP, dict(alpha=0.7, beta=-0.25), [X], all_since(OP), id="alpha_beta"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[2, 3, 4]], {"alpha": 0.5}),
    shape_case(OP, 22, [[5]]),
    shape_case(OP, 1, [[3]], not_inferred_by_onnx={0: [3]}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
