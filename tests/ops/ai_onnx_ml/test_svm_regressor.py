"""SVMRegressor: the kernel against onnxruntime (support vectors with every kernel, the linear model, one-class
output; onnxruntime computes float X only: other types are checked against its float results), the shape
formula against onnxruntime, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_matches_oracle, assert_registry_ranges_exercised, oracle_params
from tests.helpers.ml_models import DOMAIN, assert_shapes_match, checks, ort_outputs, validation_errors

OP = "SVMRegressor"
X = np.array([[1.0, 0.5, -1.0], [0.25, -0.75, 2.0], [-1.5, 1.0, 0.0], [0.0, 0.0, 0.5]], dtype=np.float32)


def svr(kernel: str = "RBF", **extra: Any) -> dict[str, Any]:
    return dict(n_supports=3, support_vectors=[0.5, 1.0, -1.0, -0.5, 0.25, 1.5, 1.0, -1.0, 0.0],
                coefficients=[0.75, -1.25, 0.5], rho=[0.125], kernel_type=kernel, kernel_params=[0.5, 0.25, 3.0],
                **extra)


LINEAR = dict(coefficients=[0.5, -0.25, 1.0], rho=[-0.5], kernel_params=[0.5, 0.0, 1.0])


def case(attrs: dict[str, Any], x: np.ndarray = X, id: str = "") -> OracleCase:
    """onnxruntime computes float X only: for other types its float results on the same values are the oracle
    (X is read in single precision there anyway)."""
    return OracleCase(OP, attrs, [x], (1,), oracle=lambda: ort_outputs(OP, 1, x.astype(np.float32), attrs, 1),
                      rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    *[case(svr(k), id=f"kernel_{k}") for k in ("LINEAR", "POLY", "RBF", "SIGMOID")],
    case(svr("RBF", one_class=1), id="one_class"),
    case(svr("POLY", post_transform="LOGISTIC"), id="post_transform_unchanged"),
    case(LINEAR, id="linear"),
    case(svr("SIGMOID"), x=X.astype(np.float64), id="double"),
    case(LINEAR, x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int64), id="int64"),
    case(svr("POLY"), x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int32), id="int32"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize("attrs", [pytest.param(svr(), id="svc"), pytest.param(LINEAR, id="linear")])
def test_shape_formula_matches_onnxruntime(attrs: dict[str, Any]) -> None:
    assert_shapes_match(OP, 1, X, attrs, 1)


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({**svr(), "rho": [0.0, 1.0]}, "svmregressor_c1", id="two_rho"),
    pytest.param({k: v for k, v in svr().items() if k != "coefficients"}, "svmregressor_c1", id="no_coefficients"),
    pytest.param({**svr(), "support_vectors": [0.0] * 6}, "svmregressor_c2", id="support_vectors_length"),
    pytest.param({**svr(), "coefficients": [1.0]}, "svmregressor_c2", id="coefficient_per_vector"),
    pytest.param({**LINEAR, "coefficients": [1.0, 2.0]}, "svmregressor_c3", id="linear_coefficients"),
    pytest.param({**svr(), "one_class": 2}, "attr_allowed", id="one_class"),
    pytest.param({**svr(), "n_supports": -1}, "attr_range", id="n_supports"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, 1, [4, 3], attrs)


def test_a_valid_model_validates_clean() -> None:
    assert validation_errors(OP, 1, X, svr(), 1) == []
