"""Constant: the kernel against onnx.reference for each value attribute, and the one-value constraint."""

from __future__ import annotations

from onnx import numpy_helper

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
)

OP = "Constant"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, dict(value=numpy_helper.from_array(f32(2, 3))), [], all_since(OP), id="tensor"),
    OracleCase(OP, dict(value_float=1.5), [], all_since(OP, 12), id="float"),
    OracleCase(OP, dict(value_ints=[1, 2, 3]), [], all_since(OP, 12), id="ints"),
    OracleCase(OP, dict(value_floats=[1.5, 2.0]), [], all_since(OP, 12), id="floats"),
    OracleCase(OP, dict(value_int=7), [], all_since(OP, 12), id="int"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


REJECTED = [(shape_case(OP, 12, [], {"value_int": 1, "value_ints": [1, 2]}), "constant_c1")]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
