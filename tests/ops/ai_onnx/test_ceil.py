"""Ceil: the kernel against onnx.reference and onnxruntime (float16, float, double) and against Python's
math.ceil; integral values, -0, NaN and the infinities come back unchanged; the shape formula against onnx's
shape inference (none at opset 1, whose node may carry the legacy hint consumed_inputs)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_case, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, assert_returned_unchanged, unary_cases, unary_shape_cases

OP = "Ceil"
X = Seeded(712).f32(3, 4, 5) * 4

CASES = unary_cases(OP, X, ort=all_since(OP, 6), ort_dtypes=(np.float32, np.float16))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [*unary_shape_cases(OP, not_inferred_at=(1,)),
          shape_case(OP, 1, [[2, 3]], {"consumed_inputs": [0]}, not_inferred_by_onnx={0: [2, 3]})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_math(since: int, dtype: type[np.floating]) -> None:
    assert_matches_math(OP, since, math.ceil, np.arange(-4, 4.125, 0.125).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_integral_values_zeros_nan_and_infinities_come_back_unchanged(dtype: type[np.floating]) -> None:
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 3, -3, 1024, -1024]).astype(dtype)
    assert_returned_unchanged(OP, all_since(OP)[-1], x)


def test_a_negative_fraction_gives_negative_zero() -> None:
    y = run("ai.onnx", OP, 13, [np.array([-0.5, -0.25, 0.25], np.float32)])[0]
    assert np.array_equal(np.signbit(y), [True, True, False]) and np.array_equal(y, [0, 0, 1]), y


def test_consumed_inputs_is_a_hint_the_kernel_never_sees() -> None:
    x = np.array([-1.5, 0.5, 2.0], np.float32)
    assert np.array_equal(run("ai.onnx", OP, 1, [x], consumed_inputs=[0])[0], run("ai.onnx", OP, 1, [x])[0])
