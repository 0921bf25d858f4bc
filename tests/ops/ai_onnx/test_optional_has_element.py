"""OptionalHasElement: the kernel against onnx.reference (a present, an empty and, from 18, an omitted optional; a
tensor that is no optional), and the shape formula against onnx's shape inference."""

from __future__ import annotations

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "OptionalHasElement"
data = Seeded(1234)
X = data.f32(2, 3)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), input_types={0: "optional(tensor(float))"}, id="present"),
    OracleCase(OP, {}, [None], all_since(OP), input_types={0: "optional(tensor(float))"}, id="empty"),
    OracleCase(OP, {}, [[X]], all_since(OP), input_types={0: "optional(seq(tensor(float)))"}, id="sequence"),
    OracleCase(OP, {}, [None], all_since(OP), input_types={0: "optional(seq(tensor(int64)))"}, id="empty_sequence"),
    OracleCase(OP, {}, [], all_since(OP, 18), id="omitted"),
    OracleCase(OP, {}, [X], all_since(OP, 18), id="tensor"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [[2, 3]]) for v in all_since(OP, 18)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
