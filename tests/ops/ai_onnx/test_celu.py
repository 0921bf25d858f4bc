"""Celu: the kernel against onnx.reference, the shape formula against onnx, alpha = 0 rejected."""

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

OP = "Celu"
X = Seeded(2005).f32(3, 4, 5) * 3

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, dict(alpha=2.5), [X], all_since(OP), id="alpha"),
    OracleCase(OP, dict(alpha=-0.5), [X], all_since(OP), id="negative_alpha"),
    OracleCase(OP, dict(alpha=0.75), [X.astype(np.float64)], all_since(OP, 28), id="double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 12, [[2, 3, 4]]), shape_case(OP, 28, [[5]], {"alpha": 0.5})]
REJECTED = [(shape_case(OP, opset, [[3]], {"alpha": 0.0}), "celu_c1") for opset in (12, 28)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
