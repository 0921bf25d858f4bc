"""Gelu: the kernel (erf form and tanh estimate) against onnx.reference, the shape formula against onnx."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "Gelu"
data = Seeded(2001)
X = data.f32(2, 3, 4) * 3

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="erf"),
    OracleCase(OP, dict(approximate="tanh"), [X], all_since(OP), id="tanh"),
    OracleCase(OP, dict(approximate="none"), [X.astype(np.float16)], all_since(OP), rtol=2e-3, id="erf_f16"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 20, [[2, 3, 4]]), shape_case(OP, 20, [[]], {"approximate": "tanh"})]
REJECTED = [(shape_case(OP, 20, [[3]], {"approximate": "erf"}), "attr_allowed")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_the_two_forms_differ_where_the_estimate_is_inexact() -> None:
    """The tanh estimate is not the erf form: at x = -3 they differ by about 4e-4 (both computed here)."""
    x = np.array([-3.0], np.float64)
    exact = run("ai.onnx", OP, 20, [x])[0]
    estimate = run("ai.onnx", OP, 20, [x], approximate="tanh")[0]
    assert abs(float(exact[0]) - float(estimate[0])) > 1e-4
