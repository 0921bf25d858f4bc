"""Softsign: the kernel against onnx.reference and the shape formula against onnx's shape inference."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "Softsign"
X = Seeded(2008).f32(3, 4, 5) * 3

CASES = [
    OracleCase(OP, {}, [X], all_since(OP)),
    OracleCase(OP, {}, [X.astype(np.float16)], all_since(OP), rtol=1e-3, id="f16"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 1, [[2, 3, 4]]), shape_case(OP, 22, [[5]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
