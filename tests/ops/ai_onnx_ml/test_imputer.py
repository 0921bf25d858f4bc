"""Imputer: the kernel against onnxruntime (float, int64) and onnx.reference (every type, [N, F]), the shape
formula against onnxruntime, rejected attribute combinations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
)

DOMAIN = "ai.onnx.ml"
OP = "Imputer"
data = Seeded(45)
NANS = np.array([[1, np.nan, 3], [np.nan, 5, 0], [0, 0, np.nan]], np.float32)
INTS = np.array([[1, -1, 3], [-1, 5, 0], [0, 0, -1]], np.int64)
FEATURES = {"imputed_value_floats": [10.0, 20.0, 30.0], "replaced_value_float": float("nan")}


def case(x: np.ndarray, attrs: dict[str, Any], id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [
    case(NANS, FEATURES, "nan_per_feature"),
    case(NANS, {"imputed_value_floats": [-2.5]}, "zero_replaced_one_value"),
    case(NANS[0], FEATURES, "vector"),
    case(np.zeros((2, 3, 2), np.float32), {"imputed_value_floats": [7.0]}, "rank3_one_value"),
    case(INTS, {"imputed_value_int64s": [9, 8, 7], "replaced_value_int64": -1}, "int64_per_feature"),
    case(INTS, {"imputed_value_int64s": [4]}, "int64_zero"),
    case(NANS.astype(np.float64), FEATURES, "double", oracle="ref"),
    case(INTS.astype(np.int32), {"imputed_value_int64s": [9], "replaced_value_int64": -1}, "int32", oracle="ref"),
    case(NANS, {"imputed_value_floats": [6.0], "replaced_value_float": 3.0}, "value_ref", oracle="ref"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("x", "attrs"), [
    pytest.param(NANS, FEATURES, id="v1-matrix"),
    pytest.param(NANS[0], FEATURES, id="v1-vector"),
    pytest.param(np.zeros((2, 3, 2), np.float32), {"imputed_value_floats": [7.0]}, id="v1-rank3"),
])
def test_shape_formula_matches_onnxruntime(x: np.ndarray, attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [x], attrs)


REJECTED = [
    (shape_case(OP, 1, [[2, 3]], {}, domain=DOMAIN), "imputer_c1"),
    (shape_case(OP, 1, [[2, 3]], {"imputed_value_floats": [1.0], "imputed_value_int64s": [1]}, domain=DOMAIN),
     "imputer_c1"),
    (shape_case(OP, 1, [[2, 3]], {"imputed_value_floats": [1.0, 2.0]}, domain=DOMAIN), "imputer_c2"),
    (shape_case(OP, 1, [[2, 3, 3]], {"imputed_value_floats": [1.0, 2.0, 3.0]}, domain=DOMAIN), "imputer_c2"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("x", "attrs", "message"), [
    pytest.param(NANS, {"imputed_value_int64s": [1]}, "needs imputed_value_floats", id="int_values_float_x"),
    pytest.param(INTS.astype(np.int32), {"imputed_value_int64s": [2**40]}, "do not fit", id="int32_overflow"),
])
def test_kernel_rejects_values_of_the_wrong_kind(x: np.ndarray, attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, [x], **attrs)
