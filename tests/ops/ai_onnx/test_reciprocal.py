"""Reciprocal: the kernel against onnx.reference and onnxruntime (float16, float, double) and against 1 / x
in Python; signed zeros and the infinities; the shape formula against onnx's shape inference (none at opset 1,
whose node may carry the legacy hint consumed_inputs)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_case, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, unary_cases, unary_shape_cases

OP = "Reciprocal"
X = Seeded(718).f32(3, 4, 5) * 4

CASES = unary_cases(OP, X, ort=all_since(OP, 6), ort_dtypes=(np.float32, np.float16))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [*unary_shape_cases(OP, not_inferred_at=(1,)),
          shape_case(OP, 1, [[2, 3]], {"consumed_inputs": [0]}, not_inferred_by_onnx={0: [2, 3]})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_python_division(since: int, dtype: type[np.floating]) -> None:
    grid = np.concatenate([np.geomspace(1e-3, 6e4, 40), -np.geomspace(1e-3, 6e4, 40), [3, 7, -0.1]])
    assert_matches_math(OP, since, lambda v: 1 / v, grid.astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_signed_zeros_and_infinities(dtype: type[np.floating]) -> None:
    """1 / +-0 is +-inf and 1 / +-inf is +-0: the sign survives (IEEE 754)."""
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan]).astype(dtype)
    y = run("ai.onnx", OP, all_since(OP)[-1], [x])[0]
    assert y.dtype == dtype and np.array_equal(y, [np.inf, -np.inf, 0, 0, np.nan], equal_nan=True), y
    assert np.array_equal(np.signbit(y[:4]), [False, True, False, True]), y
