"""SpaceToDepth: the kernel against onnx.reference, the shape formula against onnx, rejected nodes."""

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

OP = "SpaceToDepth"
f32 = Seeded(1234).f32

CASES = [OracleCase(OP, dict(blocksize=2), [f32(1, 3, 4, 6)], all_since(OP), id="dcr")]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (1, 13, 28)
SHAPES = [shape_case(OP, opset, [shape], {"blocksize": b}) for opset in OPSETS
          for shape, b in (([1, 3, 4, 6], 2), ([2, 1, 9, 3], 3))]
REJECTED = [(shape_case(OP, opset, [[1, 3, 4, 5]], {"blocksize": 2}), "spacetodepth_c1") for opset in OPSETS]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
