"""IsNaN: the kernel against onnx.reference and onnxruntime on data full of NaN, infinities and signed zeros
(float16, float, double), and against math.isnan; the shape formula against onnx's shape inference."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import FLOATS, unary_cases, unary_shape_cases

OP = "IsNaN"
RAND = Seeded(722)
X = RAND.f32(4, 5)
X[RAND.ints(0, 2, (4, 5), np.int8) == 1] = np.nan
X[0, :4] = [np.inf, -np.inf, -0.0, 0.0]

CASES = unary_cases(OP, X, ort=all_since(OP), ort_dtypes=FLOATS)


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_math_isnan(since: int, dtype: type[np.floating]) -> None:
    x = X.astype(dtype)
    got = run("ai.onnx", OP, since, [x])[0]
    assert got.dtype == np.bool_ and got.tolist() == [[math.isnan(v) for v in row] for row in x.tolist()], got
