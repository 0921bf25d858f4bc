"""Acosh: the kernel against onnx.reference (float16, float, double) and onnxruntime, against Python's
math.acosh on a grid and at the edges of its domain; the shape formula against onnx's shape inference."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, unary_cases, unary_shape_cases

OP = "Acosh"
X = Seeded(704).f32(3, 4, 5) + 2  # shifted so that most lies in [1, inf)

CASES = unary_cases(OP, X, ort=all_since(OP), ort_dtypes=(np.float32, np.float16))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_math(since: int, dtype: type[np.floating]) -> None:
    assert_matches_math(OP, since, math.acosh, np.concatenate([np.linspace(1, 10, 37), [100, 6e4]]).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_outside_the_domain_and_infinity(dtype: type[np.floating]) -> None:
    """Below 1 the result is NaN, at +inf it is +inf (IEEE 754 / C99 Annex F)."""
    x = np.array([-np.inf, -1, 0, 0.9375, np.nan, np.inf]).astype(dtype)
    y = run("ai.onnx", OP, all_since(OP)[-1], [x])[0]
    assert y.dtype == dtype and np.isnan(y[:-1]).all() and y[-1] == np.inf, y
