"""Softplus: the kernel against onnx.reference, the shape formula against onnx, no overflow for large x."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, run, shape_case, shape_tests

OP = "Softplus"
X = Seeded(2007).f32(3, 4, 5) * 3

CASES = [OracleCase(OP, {}, [X], all_since(OP))]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 22, [[2, 3, 4]]),
    shape_case(OP, 1, [[3]]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def test_large_inputs_stay_finite() -> None:
    """ln(1 + e^x) is x for large x and e^x for very negative x: exp(100) overflows float32, the kernel must not."""
    y = run("ai.onnx", OP, 22, [np.array([100.0, -100.0], np.float32)])[0]
    assert y.dtype == np.float32
    assert y[0] == np.float32(100.0)
    assert 0.0 <= y[1] < 1e-40
