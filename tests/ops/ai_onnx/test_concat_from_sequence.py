"""ConcatFromSequence: the kernel against onnx.reference (joining along an axis of differing sizes, stacking at the
front and at the end), the shape formula against onnx's shape inference, and every constraint."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "ConcatFromSequence"
data = Seeded(1234)
ROWS = [data.f32(2, 3), data.f32(4, 3), data.f32(1, 3)]
SAME = [data.f32(2, 3), data.f32(2, 3)]
V = all_since(OP)

CASES = [
    OracleCase(OP, {"axis": 0}, [ROWS], V, id="rows"),
    OracleCase(OP, {"axis": -2}, [ROWS], V, id="rows_negative"),
    OracleCase(OP, {"axis": 1}, [[data.f32(2, 1), data.f32(2, 4)]], V, id="columns"),
    OracleCase(OP, {"axis": 0, "new_axis": 1}, [SAME], V, id="stack_front"),
    OracleCase(OP, {"axis": 2, "new_axis": 1}, [SAME], V, id="stack_end"),
    OracleCase(OP, {"axis": -1, "new_axis": 1}, [SAME], V, id="stack_end_negative"),
    OracleCase(OP, {"axis": 0, "new_axis": 1}, [[np.array(1, np.int64), np.array(2, np.int64)]], V,
               id="stack_scalars"),
    OracleCase(OP, {"axis": 0}, [[data.f32(3)]], V, id="one"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 11, [[[2, 3], [4, 3], [1, 3]]], {"axis": 0}),
    shape_case(OP, 11, [[[2, 1], [2, 4]]], {"axis": -1}),
    shape_case(OP, 11, [[[2, 3], [2, 3]]], {"axis": 1, "new_axis": 1}),
    shape_case(OP, 11, [[[2, 3], [2, 3], [2, 3]]], {"axis": -1, "new_axis": 1}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 11, [[]], {"axis": 0}), "concatfromsequence_c1"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]]], {"axis": 2}), "concatfromsequence_c2"),
    (shape_case(OP, 11, [[[2, 3], [2, 3]]], {"axis": 3, "new_axis": 1}), "concatfromsequence_c2"),
    (shape_case(OP, 11, [[[2, 3], [2, 3]]], {"axis": -4, "new_axis": 1}), "concatfromsequence_c2"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]]], {"axis": 1}), "concatfromsequence_c4"),
    (shape_case(OP, 11, [[[2, 3], [2, 3, 1]]], {"axis": 0}), "concatfromsequence_c4"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]]], {"axis": 0, "new_axis": 1}), "concatfromsequence_c4"),
    (shape_case(OP, 11, [[[2, 3]]], {"axis": 0, "new_axis": 2}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_scalars_join_only_on_a_new_axis() -> None:
    from opset.infer import infer_shapes
    from tests.helpers import version

    result = infer_shapes(version("ai.onnx", OP, 11), [[[], []]], {"axis": 0})
    assert "concatfromsequence_c3" in [p.check for p in result.problems]
