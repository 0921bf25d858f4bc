"""Erf: the kernel against onnx.reference (every numeric type it takes) and onnxruntime (float, float16),
against Python's math.erf to double precision over the whole line; opset 9's integers as the float32 value
truncated toward zero (onnx.reference's reading); the shape formula against onnx's shape inference."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, unary_cases, unary_shape_cases

OP = "Erf"
RAND = Seeded(721)
X = RAND.f32(3, 4, 5) * 2
INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
INT_VERSIONS = all_since(OP, 9, 12)  # opset 13 takes floats only

CASES = [
    *unary_cases(OP, X, ort=all_since(OP), ort_dtypes=(np.float32, np.float16)),
    *unary_cases(OP, np.arange(-7, 8), INTS[:4], versions=INT_VERSIONS, id="int"),
    *unary_cases(OP, np.arange(0, 8), INTS[4:], versions=INT_VERSIONS, id="uint"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_math(since: int, dtype: type[np.floating]) -> None:
    """A fine grid over [-7, 7] (erf is +-1 in double from 6 on) and tiny and huge magnitudes."""
    grid = np.concatenate([np.linspace(-7, 7, 1401), [1e-30, -1e-30, 5e-324, 1e30, -1e30]])
    with np.errstate(over="ignore", under="ignore"):
        x = grid.astype(dtype)
    assert_matches_math(OP, since, math.erf, x)


def test_double_is_within_a_few_ulps_of_math() -> None:
    """Far tighter than the double tolerance: the series keeps double precision."""
    x = np.linspace(-6.5, 6.5, 20001)
    got = run("ai.onnx", OP, 13, [x])[0]
    want = np.array([math.erf(v) for v in x])
    assert np.max(np.abs(got - want)) < 4e-15


@pytest.mark.parametrize("dtype", FLOATS)
def test_infinities_nan_and_signed_zero(dtype: type[np.floating]) -> None:
    y = run("ai.onnx", OP, 13, [np.array([np.inf, -np.inf, np.nan, -0.0], dtype)])[0]
    assert np.array_equal(y, [1, -1, np.nan, 0], equal_nan=True) and np.signbit(y[3]), y


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("since", INT_VERSIONS)
def test_integers_are_the_float32_value_truncated(since: int, dtype: type[np.integer]) -> None:
    info = np.iinfo(dtype)
    x = np.unique(np.clip(np.array([-10**6, -100, -7, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 100, 10**6]),
                          info.min, info.max)).astype(dtype)
    got = run("ai.onnx", OP, since, [x])[0]
    want = [int(float(np.float32(math.erf(v)))) for v in x.tolist()]  # int() truncates toward zero
    assert got.dtype == dtype and got.tolist() == want, got
