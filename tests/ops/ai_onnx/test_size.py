"""Size: the kernel against onnx.reference, the (scalar) shape formula against onnx."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, all_since, oracle_tests, shape_case, shape_tests

OP = "Size"

CASES = [
    OracleCase(OP, {}, [np.zeros((2, 3, 4), np.float32)], all_since(OP), id="matrix"),
    OracleCase(OP, {}, [np.zeros((), np.int64)], all_since(OP), id="scalar"),
    OracleCase(OP, {}, [np.zeros((3, 0), np.bool_)], all_since(OP), id="empty"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [shape]) for v in (1, 13, 25) for shape in ([2, 3, 4], [], [0, 7])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
