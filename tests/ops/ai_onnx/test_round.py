"""Round: the kernel against onnx.reference and onnxruntime (float16, float, double) and against Python's
round(), which also rounds halves to even; the neighbours of halves; integral values, -0, NaN and the
infinities come back unchanged; the shape formula against onnx's shape inference."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, assert_returned_unchanged, unary_cases, unary_shape_cases

OP = "Round"
X = np.concatenate([Seeded(714).f32(40) * 4, np.arange(-4.5, 5, 1, dtype=np.float32)])  # and every half in [-4.5, 4.5]

CASES = unary_cases(OP, X, ort=all_since(OP), ort_dtypes=(np.float32, np.float16))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_python_round(since: int, dtype: type[np.floating]) -> None:
    assert_matches_math(OP, since, round, np.arange(-6, 6.125, 0.125).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_the_neighbours_of_a_half_round_to_the_nearer_integer(dtype: type[np.floating]) -> None:
    """Just below 0.5 is 0 (floor(x + 0.5) would give 1), just above 2.5 is 3 (halving to even would give 2)."""
    t = np.dtype(dtype).type
    x = np.array([np.nextafter(t(0.5), t(0)), np.nextafter(t(2.5), t(3)), np.nextafter(t(-2.5), t(-3)),
                  np.nextafter(t(-1.5), t(0))], dtype)
    assert_matches_math(OP, all_since(OP)[-1], round, x)


@pytest.mark.parametrize("dtype", FLOATS)
def test_integral_values_zeros_nan_and_infinities_come_back_unchanged(dtype: type[np.floating]) -> None:
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 3, -3, 1024, -1024]).astype(dtype)
    assert_returned_unchanged(OP, all_since(OP)[-1], x)


def test_a_negative_half_gives_negative_zero() -> None:
    y = run("ai.onnx", OP, 11, [np.array([-0.5, -0.25, 0.5], np.float32)])[0]
    assert np.array_equal(np.signbit(y), [True, True, False]) and np.array_equal(y, [0, 0, 0]), y
