"""Neg: the kernel against onnx.reference and onnxruntime for every float and signed integer type it takes;
signed integers wrap at their minimum as two's complement arithmetic does (checked against Python's unbounded
integers); the shape formula against onnx's shape inference (none at opset 1, whose node may carry the legacy
hint consumed_inputs)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_case, shape_tests
from tests.helpers.unary import unary_cases, unary_shape_cases

OP = "Neg"
RAND = Seeded(719)
X = RAND.f32(3, 4, 5) * 4
SIGNED = (np.int8, np.int16, np.int32, np.int64)
EXTREMES = np.array([-128, -127, -1, 0, 1, 127], np.int64)  # every signed type holds these

CASES = [
    *unary_cases(OP, X, ort=all_since(OP, 6), ort_dtypes=(np.float32, np.float16)),
    *unary_cases(OP, RAND.ints(-100, 100, (4, 5), np.int64), SIGNED, versions=all_since(OP, 6),
                 ort=all_since(OP, 6), ort_dtypes=SIGNED, id="int"),
    *unary_cases(OP, EXTREMES, (np.int8,), versions=all_since(OP, 6), ort=all_since(OP, 6), ort_dtypes=(np.int8,),
                 id="int8_extremes"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [*unary_shape_cases(OP, not_inferred_at=(1,)),
          shape_case(OP, 1, [[2, 3]], {"consumed_inputs": [0]}, not_inferred_by_onnx={0: [2, 3]})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


@pytest.mark.parametrize("dtype", SIGNED)
@pytest.mark.parametrize("since", all_since(OP, 6))
def test_signed_integers_wrap_like_twos_complement(since: int, dtype: type[np.signedinteger]) -> None:
    info = np.iinfo(dtype)
    x = np.array([info.min, info.min + 1, -1, 0, 1, info.max], dtype)
    got = run("ai.onnx", OP, since, [x])[0]
    span = 2 ** info.bits
    want = [(-int(v) - info.min) % span + info.min for v in x]  # -v brought back into [min, max] modulo 2**bits
    assert got.dtype == dtype and got.tolist() == want, got


def test_floats_flip_the_sign_bit_of_zero_nan_and_infinity() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], np.float32)
    y = run("ai.onnx", OP, 13, [x])[0]
    assert np.array_equal(y, [0, 0, -np.inf, np.inf, np.nan], equal_nan=True), y
    assert np.array_equal(np.signbit(y[:4]), [True, False, True, False]), y
