"""Scaler: the kernel against onnxruntime (every type, per feature and for all) and onnx.reference (float), the
shape formula against onnxruntime, rejected attribute combinations."""

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
    shape_case,
)

DOMAIN = "ai.onnx.ml"
OP = "Scaler"
data = Seeded(44)
PER_FEATURE = {"offset": [1.0, -2.0, 0.5], "scale": [2.0, 0.25, -1.0]}
ONE = {"offset": [0.75], "scale": [-3.0]}


def case(x: np.ndarray, attrs: dict[str, Any], id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [
    case(data.f32(4, 3), PER_FEATURE, "per_feature"),
    case(data.f32(3), PER_FEATURE, "vector_per_feature"),
    case(data.f32(2, 3, 4), ONE, "one_value_rank3"),
    case(data.f32(4, 3).astype(np.float64), PER_FEATURE, "double"),
    case(data.ints(-9, 9, (4, 3), np.int64), PER_FEATURE, "int64"),
    case(data.ints(-9, 9, (2, 5), np.int32), ONE, "int32"),
    case(data.f32(4, 3), PER_FEATURE, "per_feature_ref", oracle="ref"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("x", "attrs"), [
    pytest.param(data.f32(2, 3), PER_FEATURE, id="v1-matrix"),
    pytest.param(data.f32(2, 3, 4), ONE, id="v1-rank3"),
    pytest.param(data.ints(0, 3, (3,), np.int64), PER_FEATURE, id="v1-int_vector"),
])
def test_shape_formula_matches_onnxruntime(x: np.ndarray, attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [x], attrs)


REJECTED = [
    (shape_case(OP, 1, [[2, 3]], {"offset": [1.0, 2.0, 3.0]}, domain=DOMAIN), "scaler_c1"),
    (shape_case(OP, 1, [[2, 3]], {"scale": [1.0]}, domain=DOMAIN), "scaler_c1"),
    (shape_case(OP, 1, [[2, 3]], {"offset": [1.0, 2.0], "scale": [1.0]}, domain=DOMAIN), "scaler_c1"),
    (shape_case(OP, 1, [[2, 3]], {"offset": [1.0, 2.0], "scale": [1.0, 2.0]}, domain=DOMAIN), "scaler_c2"),
    (shape_case(OP, 1, [[2, 3, 3]], PER_FEATURE, domain=DOMAIN), "scaler_c2"),
    (shape_case(OP, 1, [[]], ONE, domain=DOMAIN), "rank"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
