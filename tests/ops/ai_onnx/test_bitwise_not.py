"""BitwiseNot: the kernel against onnx.reference and onnxruntime for every integer type, and against Python's
integers (-x - 1 for signed types, max - x for unsigned ones) at each type's extremes; the shape formula
against onnx's shape inference."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, run, shape_tests
from tests.helpers.unary import unary_cases, unary_shape_cases

OP = "BitwiseNot"
RAND = Seeded(725)
SIGNED = (np.int8, np.int16, np.int32, np.int64)
UNSIGNED = (np.uint8, np.uint16, np.uint32, np.uint64)

CASES = [
    *unary_cases(OP, RAND.ints(-128, 128, (3, 4, 5), np.int64), SIGNED, ort=all_since(OP), ort_dtypes=SIGNED,
                 id="int"),
    *unary_cases(OP, RAND.ints(0, 256, (3, 4, 5), np.int64), UNSIGNED, ort=all_since(OP), ort_dtypes=UNSIGNED,
                 id="uint"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests(unary_shape_cases(OP))


@pytest.mark.parametrize("dtype", [*SIGNED, *UNSIGNED])
def test_kernel_matches_python_integers(dtype: type[np.integer]) -> None:
    info = np.iinfo(dtype)
    x = np.array([info.min, info.min + 1, 0, 1, 2, info.max - 1, info.max], dtype)
    got = run("ai.onnx", OP, 18, [x])[0]
    want = [-v - 1 if info.min < 0 else info.max - v for v in x.tolist()]
    assert got.dtype == dtype and got.tolist() == want, got
