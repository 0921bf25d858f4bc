"""Softmax: the kernel against onnx.reference/onnxruntime, the shape formula against onnx, rejected nodes."""

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

OP = "Softmax"
f32 = Seeded(1234).f32

CASES = [
    # the reference normalises along the last axis at opset 1/11 instead of coercing to 2-D
    OracleCase(OP, {}, [f32(2, 3, 4)], all_since(OP, 1, 12), oracle="ort", id="default"),
    OracleCase(OP, dict(axis=0), [f32(2, 3, 4)], all_since(OP, 1, 12), oracle="ort", id="axis0"),
    OracleCase(OP, dict(axis=-2), [f32(2, 3, 4)], all_since(OP, 11, 12), oracle="ort", id="axis_neg"),
    OracleCase(OP, {}, [f32(2, 3, 4)], all_since(OP, 13), id="default"),
    OracleCase(OP, dict(axis=0), [f32(2, 3, 4)], all_since(OP, 13), id="axis0"),
    OracleCase(OP, dict(axis=-2), [f32(2, 3, 4)], all_since(OP, 13), id="axis_neg"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in (1, 11, 13)
          for attrs in ({}, {"axis": 2}, *([{"axis": -3}] if opset >= 11 else []))]
REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axis": 2}), "softmax_c1") for opset in (1, 11, 13)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
