"""Log: the kernel against onnx.reference and onnxruntime (float16, float, double) and against Python's
math.log; zero, negative values and the infinities; the shape formula against onnx's shape inference (none
at opset 1, whose node may carry the legacy hint consumed_inputs)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_case, shape_tests
from tests.helpers.unary import FLOATS, assert_matches_math, unary_cases, unary_shape_cases

OP = "Log"
X = Seeded(716).f32(3, 4, 5) * 4  # about half of it negative (NaN)

CASES = unary_cases(OP, X, ort=all_since(OP, 6), ort_dtypes=(np.float32, np.float16))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [*unary_shape_cases(OP, not_inferred_at=(1,)),
          shape_case(OP, 1, [[2, 3]], {"consumed_inputs": [0]}, not_inferred_by_onnx={0: [2, 3]})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_math(since: int, dtype: type[np.floating]) -> None:
    assert_matches_math(OP, since, math.log, np.geomspace(1e-3, 6e4, 60).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_zero_negatives_and_infinities(dtype: type[np.floating]) -> None:
    """+-0 gives -inf, +inf +inf, anything below zero NaN (IEEE 754 / C99 Annex F)."""
    x = np.array([0.0, -0.0, np.inf, -1, -np.inf, np.nan]).astype(dtype)
    y = run("ai.onnx", OP, all_since(OP)[-1], [x])[0]
    assert y.dtype == dtype and np.array_equal(y, [-np.inf, -np.inf, np.inf, np.nan, np.nan, np.nan],
                                               equal_nan=True), y
