"""LinearRegressor: the kernel against onnxruntime (several targets, intercepts, post transforms; one target,
where only PROBIT changes the score; onnxruntime computes float X only: other types are checked against its
float results), the shape formula against onnxruntime, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_matches_oracle, assert_registry_ranges_exercised, oracle_params
from tests.helpers.ml_models import DOMAIN, assert_shapes_match, checks, ort_outputs, validation_errors

OP = "LinearRegressor"
X = np.array([[1.0, 0.5, -1.0], [0.25, -0.75, 2.0], [-1.5, 1.0, 0.0]], dtype=np.float32)
TWO = dict(coefficients=[0.5, -0.25, 1.0, -0.75, 0.125, 0.5], intercepts=[0.25, -0.5], targets=2)
ONE = dict(coefficients=[0.125, -0.0625, 0.25], intercepts=[0.375])


def case(attrs: dict[str, Any], x: np.ndarray = X, id: str = "") -> OracleCase:
    """onnxruntime computes float X only: for other types its float results on the same values are the oracle."""
    return OracleCase(OP, attrs, [x], (1,), oracle=lambda: ort_outputs(OP, 1, x.astype(np.float32), attrs, 1),
                      rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    *[case({**TWO, "post_transform": p}, id=f"two_{p}") for p in ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO")],
    case({**TWO, "coefficients": [0.125] * 6, "intercepts": [0.25, 0.5], "post_transform": "PROBIT"},
         id="two_PROBIT"),
    case({k: v for k, v in TWO.items() if k != "intercepts"}, id="no_intercepts"),
    *[case({**ONE, "post_transform": p}, id=f"one_{p}") for p in ("NONE", "LOGISTIC", "SOFTMAX", "PROBIT")],
    case(TWO, x=X.astype(np.float64), id="double"),
    case(TWO, x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int64), id="int64"),
    case(ONE, x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int32), id="int32"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize("attrs", [pytest.param(TWO, id="two_targets"), pytest.param(ONE, id="one_target")])
def test_shape_formula_matches_onnxruntime(attrs: dict[str, Any]) -> None:
    assert_shapes_match(OP, 1, X, attrs, 1)


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({**TWO, "targets": 3}, "linearregressor_c1", id="coefficients_per_target"),
    pytest.param({"targets": 1}, "linearregressor_c1", id="no_coefficients"),
    pytest.param({**TWO, "intercepts": [1.0]}, "linearregressor_c2", id="intercepts_per_target"),
    pytest.param({**TWO, "targets": 0}, "attr_range", id="no_target"),
    pytest.param({**TWO, "post_transform": "EXP"}, "attr_allowed", id="post_transform"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, 1, [3, 3], attrs)


def test_a_valid_model_validates_clean() -> None:
    assert validation_errors(OP, 1, X, TWO, 1) == []
