"""Mish: the kernel against onnx.reference (large |x| too), the shape formula against onnx."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "Mish"
X = Seeded(2006).f32(3, 4, 5) * 3
WIDE = np.array([-100, -20, -1, 0, 1, 20, 100], np.float32)  # softplus must neither overflow nor lose x

CASES = [
    OracleCase(OP, {}, [X], all_since(OP)),
    OracleCase(OP, {}, [WIDE], all_since(OP), id="wide"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 18, [[2, 3, 4]]), shape_case(OP, 22, [[]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
