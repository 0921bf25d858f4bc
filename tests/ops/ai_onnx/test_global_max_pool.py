"""GlobalMaxPool: the kernel against onnx.reference (onnxruntime for 3-D) and the shape formula against onnx."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    shape_case,
    shape_tests,
)

OP = "GlobalMaxPool"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 4, 5)], all_since(OP)),
    # the reference reduces only the last two axes of a 3-D image
    OracleCase(OP, {}, [f32(2, 3, 4, 5, 2)], all_since(OP), oracle="ort", id="3d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 1, [[1, 3, 2, 2, 2]]),
    shape_case(OP, 22, [[2, 3]]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
