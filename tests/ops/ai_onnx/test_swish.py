"""Swish: the kernel against onnx.reference and the shape formula against onnx's shape inference."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "Swish"
X = Seeded(2009).f32(3, 4, 5) * 3

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, dict(alpha=-1.5), [X], all_since(OP), id="alpha"),
    OracleCase(OP, dict(alpha=4.0), [np.array([-20, -1, 0, 1, 20], np.float32)], all_since(OP), id="steep"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 24, [[2, 3, 4]]), shape_case(OP, 24, [[]], {"alpha": 2.0})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
