"""ThresholdedRelu: the kernel against onnx.reference (x equal to alpha gives 0), the shape formula against onnx."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "ThresholdedRelu"
X = Seeded(2011).f32(3, 4, 5) * 2
STEPS = np.arange(-8, 9, dtype=np.float32) / 4  # hits alpha = 0.5 and the default 1.0 exactly

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, {}, [STEPS], all_since(OP), id="at_threshold"),
    OracleCase(OP, dict(alpha=0.5), [STEPS.astype(np.float16)], all_since(OP), id="f16"),
    OracleCase(OP, dict(alpha=-0.75), [STEPS], all_since(OP), id="negative_alpha"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 10, [[2, 3, 4]]), shape_case(OP, 22, [[5]], {"alpha": 0.5})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
