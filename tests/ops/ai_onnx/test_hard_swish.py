"""HardSwish: the kernel against onnx.reference (float) and the shape formula against onnx."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "HardSwish"
X = Seeded(2003).f32(3, 4, 5) * 4

CASES = [
    OracleCase(OP, {}, [X], all_since(OP)),
    # the reference uses alpha = 1/6 rounded to float32 (onnx's function body), the registry 1/6 (the text):
    # the double results differ by ~3e-8 relative, inside the version's double tolerance (1e-7)
    OracleCase(OP, {}, [X.astype(np.float64)], all_since(OP), rtol=1e-7, id="double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 14, [[2, 3, 4]]), shape_case(OP, 22, [[]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
