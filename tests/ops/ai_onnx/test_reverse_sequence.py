"""ReverseSequence: the kernel against onnx.reference, the shape formula against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "ReverseSequence"
DATA = Seeded(1234).f32(4, 3, 2)

CASES = [
    OracleCase(OP, {}, [DATA, i64(4, 0, 2)], all_since(OP), id="time_major"),
    OracleCase(OP, dict(batch_axis=0, time_axis=1), [DATA, i64(3, 1, 0, 2)], all_since(OP), id="batch_major"),
    OracleCase(OP, {}, [np.arange(12, dtype=np.int64).reshape(4, 3), i64(1, 4, 3)], all_since(OP), id="rank2"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[4, 3, 2], lens], attrs) for opset in (10, 28) for lens, attrs in (
    (i64(1, 2, 3), {}), (i64(0, 3, 3, 1), {"batch_axis": 0, "time_axis": 1}))]

REJECTED = [(shape_case(OP, opset, [data, lens], attrs), check) for opset in (10, 28) for data, lens, attrs, check in (
    ([4], i64(1), {"batch_axis": 0, "time_axis": 1}, "reversesequence_c1"),
    ([4, 3], i64(1, 1, 1, 1), {"batch_axis": 0, "time_axis": 0}, "reversesequence_c2"),
    ([4, 3], i64(1, 1), {}, "reversesequence_c3"),
    ([4, 3], i64(1, 5, 1), {}, "reversesequence_c4"),
    ([4, 3], i64(1, -1, 1), {}, "reversesequence_c4"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
