"""Sign: the kernel against onnx.reference and onnxruntime for every numeric type it takes, and against
(x > 0) - (x < 0) in Python at each type's extremes; NaN stays NaN; the shape formula against onnx's shape
inference."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import FLOATS, unary_cases, unary_shape_cases

OP = "Sign"
RAND = Seeded(720)
SIGNED = (np.int8, np.int16, np.int32, np.int64)
UNSIGNED = (np.uint8, np.uint16, np.uint32, np.uint64)
X = np.concatenate([RAND.f32(30) * 4, [0.0, -0.0]]).astype(np.float32)

CASES = [
    *unary_cases(OP, X, ort=all_since(OP), ort_dtypes=(np.float32, np.float16)),
    *unary_cases(OP, RAND.ints(-100, 100, (4, 5), np.int64), SIGNED, ort=all_since(OP), ort_dtypes=SIGNED,
                 id="int"),
    *unary_cases(OP, RAND.ints(0, 100, (4, 5), np.int64), UNSIGNED, ort=all_since(OP), ort_dtypes=UNSIGNED,
                 id="uint"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", [*SIGNED, *UNSIGNED, *FLOATS])
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_comparisons_at_the_extremes(since: int, dtype: type[np.number]) -> None:
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else np.finfo(dtype)
    x = np.array([info.min, info.min + 1, 0, 1, info.max - 1, info.max], dtype)
    got = run("ai.onnx", OP, since, [x])[0]
    assert got.dtype == dtype and got.tolist() == [(v > 0) - (v < 0) for v in x.tolist()], got


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_stays_nan_and_infinities_give_one(dtype: type[np.floating]) -> None:
    """onnx's text covers > 0, < 0 and == 0 only; NaN propagates, as IEEE operations do (see the YAML's doc)."""
    y = run("ai.onnx", OP, 13, [np.array([np.nan, np.inf, -np.inf], dtype)])[0]
    assert np.array_equal(y, [np.nan, 1, -1], equal_nan=True), y
