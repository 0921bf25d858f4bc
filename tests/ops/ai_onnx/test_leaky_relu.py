"""LeakyRelu: the kernel against onnx.reference and the shape formula against onnx's shape inference."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    shape_case,
    shape_tests,
)

OP = "LeakyRelu"
f32 = Seeded(1234).f32
X = f32(3, 4, 5)

CASES = [
    OracleCase(OP, dict(alpha=0.2), [X], all_since(OP)),
    OracleCase(OP, {}, [X.astype(np.float16)], all_since(OP), rtol=1e-3, id="fp16"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[2, 3]], {"alpha": 0.2}),
    shape_case(OP, 16, [[7]]),
    shape_case(OP, 1, [[2, 2]], {}, not_inferred_by_onnx={0: [2, 2]}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
