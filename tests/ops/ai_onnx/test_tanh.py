"""Tanh: the kernel against onnx.reference and the shape formula against onnx's shape inference."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    shape_case,
    shape_tests,
)

OP = "Tanh"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, {}, [f32(3, 4, 5)], all_since(OP)),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# onnx infers no shape at opset 1 (consumed_inputs): the input's shape there
SHAPES = [shape_case(OP, opset, [shape], not_inferred_by_onnx={0: shape} if opset == 1 else {})
          for opset in (1, 6, 13, 14) for shape in ([], [3], [2, 3, 4])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
