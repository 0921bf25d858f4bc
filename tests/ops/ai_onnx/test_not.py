"""Not: the kernel against onnx.reference and onnxruntime and against Python's `not`; the shape formula
against onnx's shape inference."""

from __future__ import annotations

import numpy as np

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import unary_cases, unary_shape_cases

OP = "Not"
X = Seeded(724).ints(0, 2, (3, 4, 5), np.int8).astype(bool)

CASES = unary_cases(OP, X, (np.bool_,), ort=all_since(OP), ort_dtypes=(np.bool_,))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


def test_kernel_matches_python_not() -> None:
    got = run("ai.onnx", OP, 1, [X])[0]
    assert got.dtype == np.bool_ and got.ravel().tolist() == [not v for v in X.ravel().tolist()]
