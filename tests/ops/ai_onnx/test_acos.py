"""Acos: the kernel against onnx.reference (float16, float, double) and onnxruntime, against Python's
math.acos on a grid and at the edges of its domain; the shape formula against onnx's shape inference."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, unary_cases, unary_shape_cases

OP = "Acos"
X = Seeded(701).f32(3, 4, 5)  # about a third lies outside [-1, 1] (NaN)

CASES = unary_cases(OP, X, ort=all_since(OP), ort_dtypes=(np.float32, np.float16))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_math(since: int, dtype: type[np.floating]) -> None:
    assert_matches_math(OP, since, math.acos, np.linspace(-1, 1, 41).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_outside_the_domain_is_nan(dtype: type[np.floating]) -> None:
    """Outside [-1, 1] the result is NaN (IEEE 754 / C99 Annex F)."""
    x = np.array([-np.inf, -2, -1.0625, 1.0625, 2, np.inf, np.nan]).astype(dtype)
    y = run("ai.onnx", OP, all_since(OP)[-1], [x])[0]
    assert y.dtype == dtype and np.isnan(y).all(), y
