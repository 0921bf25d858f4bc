"""CumProd: the kernel against onnx.reference (exclusive, reverse, int32/int64 axis, integer wrap-around), the
shape formula against onnx, out-of-range axes rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "CumProd"
data = Seeded(2016)
X = data.f32(2, 3, 4) + 1
INTS = data.ints(-4, 5, (3, 5), np.int32)
BIG = np.array([65536, 65536, 3, 1], np.int64) * 65536  # the running product passes 2^63 and wraps


def axis(value: int, dtype: type[np.integer] = np.int64) -> np.ndarray:
    return np.array(value, dtype)


CASES = [
    OracleCase(OP, {}, [X, axis(1)], all_since(OP), id="inclusive"),
    OracleCase(OP, dict(exclusive=1), [X, axis(-1, np.int32)], all_since(OP), id="exclusive"),
    OracleCase(OP, dict(reverse=1), [X, axis(0)], all_since(OP), id="reverse"),
    OracleCase(OP, dict(exclusive=1, reverse=1), [X, axis(2)], all_since(OP), id="exclusive_reverse"),
    OracleCase(OP, dict(exclusive=1, reverse=1), [INTS, axis(-2, np.int32)], all_since(OP), id="int32"),
    OracleCase(OP, {}, [BIG, axis(0)], all_since(OP), id="int64_wraps"),
    OracleCase(OP, dict(reverse=1), [X.astype(np.float16), axis(1)], all_since(OP), rtol=2e-3, id="f16"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 26, [[2, 3, 4], axis(a)], attrs)
          for a, attrs in ((0, {}), (-1, {"exclusive": 1, "reverse": 1}))]
REJECTED = [(shape_case(OP, 26, [[2, 3], axis(a)]), "cumprod_c1") for a in (2, -3)]
REJECTED.append((shape_case(OP, 26, [[2, 3], np.array([1], np.int64)]), "rank"))


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
