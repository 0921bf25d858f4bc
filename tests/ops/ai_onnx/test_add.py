"""Add: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Add"
RAND = Seeded(1234)
f32 = RAND.f32
X = f32(3, 4, 5)
A, B = f32(2, 3, 4, 5), f32(3, 4)

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4, 5)], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, f32(4, 1)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, dict(broadcast=1), [X, f32(4, 5)], all_since(OP, 1, 6), id="legacy_suffix"),
    OracleCase(OP, dict(broadcast=1, axis=1), [A, B], all_since(OP, 1, 6), oracle=lambda: [np.add(A, B[:, :, None])],
               id="legacy_axis"),
    OracleCase(OP, {}, [RAND.ints(-9, 9, (3, 4), np.int32)] * 2, all_since(OP, 7), id="int"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# legacy broadcast (the output is A's shape) and numpy broadcasting
SHAPES = [
    shape_case(OP, 6, [[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}),
    shape_case(OP, 6, [[2, 3, 4, 5], []], {"broadcast": 1}),
    shape_case(OP, 7, [[2, 1, 4], [3, 1]]),
    shape_case(OP, 13, [[5], [2, 3, 5]]),
    shape_case(OP, 14, [[2, 3], [2, 3]]),
    shape_case(OP, 14, [[], [4]]),
    shape_case(OP, 1, [[2, 3, 4, 5], [2, 3, 4, 5]], {}, not_inferred_by_onnx={0: [2, 3, 4, 5]}),
    shape_case(OP, 1, [[2, 3, 4, 5], [4, 5]], {"broadcast": 1}, not_inferred_by_onnx={0: [2, 3, 4, 5]}),
]

REJECTED = [
    (shape_case(OP, 1, [[2, 3], [3]], {}), "add_c1"),
    (shape_case(OP, 6, [[2, 3, 4], [3]], {"broadcast": 1}), "add_c2"),
    (shape_case(OP, 6, [[2, 3, 4], [4]], {"broadcast": 1, "axis": 1}), "add_c2"),
    (shape_case(OP, 14, [[2, 3], [4]], {}), "add_c3"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
