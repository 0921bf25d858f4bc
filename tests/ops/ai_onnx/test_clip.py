"""Clip: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

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

OP = "Clip"
RAND = Seeded(1234)
X = RAND.f32(3, 4, 5)

CASES = [
    OracleCase(OP, dict(min=-0.5, max=0.3), [X], all_since(OP, 1, 10), oracle="ref@6", id="attrs"),
    OracleCase(OP, dict(max=0.3), [X], all_since(OP, 1, 10), oracle="ref@6", id="attr_max"),
    OracleCase(OP, {}, [X, np.array(-0.5, np.float32), np.array(0.2, np.float32)], all_since(OP, 11), id="inputs"),
    OracleCase(OP, {}, [X, None, np.array(0.2, np.float32)], all_since(OP, 11), id="max_only"),
    OracleCase(OP, {}, [RAND.ints(-9, 9, (3, 4), np.int64), np.array(-2, np.int64), np.array(3, np.int64)],
               all_since(OP, 12), id="int"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[2, 3]], {"min": 0.0, "max": 6.0}),
    shape_case(OP, 11, [[2, 3], [], []]),
    shape_case(OP, 12, [[4], None, []]),
    shape_case(OP, 13, [[2, 3, 4]]),
    shape_case(OP, 1, [[2, 3]], {"min": -1.0}, not_inferred_by_onnx={0: [2, 3]}),
]

REJECTED = [
    (shape_case(OP, 11, [[2, 3], [1], []]), "clip_c1"),
    (shape_case(OP, 13, [[2, 3], [], [2]]), "clip_c2"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
