"""SVMClassifier: the kernel against onnxruntime (one-vs-one SVC with every kernel, with and without Platt
probabilities, two and more classes; liblinear's linear models; string labels), the shape formulas against
onnxruntime, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_matches_oracle, assert_registry_ranges_exercised, oracle_params
from tests.helpers.ml_models import DOMAIN, assert_shapes_match, checks, formula_shapes, validation_errors

OP = "SVMClassifier"
X = np.array([[1.0, 0.5, -1.0], [0.25, -0.75, 2.0], [-1.5, 1.0, 0.0], [0.0, 0.0, 0.5]], dtype=np.float32)
SV = [0.5, 1.0, -1.0, -0.5, 0.25, 1.5, 1.0, -1.0, 0.0, 0.0, 0.75, -0.25, 2.0, 0.5, 0.5]  # 5 vectors of 3


def svc(classes: int, kernel: str = "RBF", proba: bool = False, post: str = "NONE",
        labels: dict[str, Any] | None = None) -> dict[str, Any]:
    """Support vectors per class: 2, 1 (, 2); coefficients (classes - 1) x 5 (or x 3 for two classes)."""
    counts = [2, 1, 2][:classes] if classes > 2 else [2, 1]
    total = sum(counts)
    pairs = classes * (classes - 1) // 2
    attrs: dict[str, Any] = dict(
        vectors_per_class=counts, support_vectors=SV[:total * 3],
        coefficients=[0.75, -0.5, 1.0, -1.25, 0.5, 0.25, -0.75, 1.5, -0.25, 0.5][:(classes - 1) * total],
        rho=[0.25, -0.5, 0.125][:pairs], kernel_type=kernel, kernel_params=[0.5, 0.25, 2.0], post_transform=post,
        **(labels or {"classlabels_ints": [5, 6, 7][:classes]}))
    if proba:
        attrs.update(prob_a=[-1.5, -0.75, -2.0][:pairs], prob_b=[0.25, -0.125, 0.5][:pairs])
    return attrs


def linear(classes: int, post: str = "NONE", positive: bool = False) -> dict[str, Any]:
    coefficients = [0.5, -0.25, 1.0, -0.75, 0.25, 0.5, 1.25, -0.5, 0.125][:classes * 3]
    return dict(coefficients=[abs(c) for c in coefficients] if positive else coefficients, rho=[0.125],
                kernel_type="LINEAR", kernel_params=[0.5, 0.0, 1.0], post_transform=post,
                classlabels_ints=[10, 20, 30][:classes])


def case(attrs: dict[str, Any], x: np.ndarray = X, id: str = "") -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), n_out=2, oracle="ort", rtol=1e-5, id=id, domain=DOMAIN)


POSTS = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO")
CASES = [
    *[case(svc(3, k), id=f"votes_{k}") for k in ("LINEAR", "POLY", "RBF", "SIGMOID")],
    *[case(svc(3, "RBF", True, p), id=f"proba_{p}") for p in (*POSTS, "PROBIT")],
    *[case(svc(2, "POLY", post=p), id=f"binary_{p}") for p in POSTS],
    case(svc(2, "SIGMOID", True), id="binary_proba"),
    case(svc(3, labels={"classlabels_strings": ["x", "y", "z"]}), id="strings"),
    case(svc(2, "RBF", labels={"classlabels_strings": ["no", "yes"]}), id="strings_binary"),
    *[case(linear(3, p), id=f"linear_{p}") for p in (*POSTS, "PROBIT")],
    case(linear(2), id="linear_binary"),
    case(linear(2, positive=True), id="linear_binary_positive"),
    case(svc(3, "POLY", True), x=X.astype(np.float64), id="double"),
    case(svc(3, "RBF"), x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int64), id="int64"),
    case(linear(3), x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int32), id="int32"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize("attrs", [
    pytest.param(svc(3), id="votes_3"),
    pytest.param(svc(4 - 1, proba=True), id="proba_3"),
    pytest.param(svc(2), id="binary"),
    pytest.param(linear(3), id="linear_3"),
])
def test_shape_formulas_match_onnxruntime(attrs: dict[str, Any]) -> None:
    assert_shapes_match(OP, 1, X, attrs, 2)


def test_scores_per_pair_of_classes() -> None:
    """Without probabilities Z holds one decision value per pair of classes."""
    attrs = svc(3)
    attrs.update(vectors_per_class=[1, 1, 1, 1], support_vectors=SV[:12], coefficients=[0.5] * 12, rho=[0.0] * 6,
                 classlabels_ints=[1, 2, 3, 4])
    assert formula_shapes(OP, 1, ["N", 3], attrs) == [["N"], ["N", "6"]]


VALID = svc(3, proba=True)


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({**VALID, "classlabels_strings": ["a", "b", "c"]}, "svmclassifier_c1", id="both_label_kinds"),
    pytest.param({**VALID, "classlabels_ints": [1], "vectors_per_class": [5], "coefficients": [],
                  "rho": [], "prob_a": [], "prob_b": []}, "svmclassifier_c2", id="one_class"),
    pytest.param({k: v for k, v in VALID.items() if k != "rho"}, "svmclassifier_c3", id="no_rho"),
    pytest.param({**VALID, "vectors_per_class": [2, 1]}, "svmclassifier_c4", id="counts_per_class"),
    pytest.param({**VALID, "support_vectors": SV[:12]}, "svmclassifier_c4", id="support_vectors_length"),
    pytest.param({**VALID, "rho": [0.0]}, "svmclassifier_c4", id="rho_per_pair"),
    pytest.param({**linear(3), "coefficients": [0.5] * 6}, "svmclassifier_c5", id="linear_coefficients"),
    pytest.param({**VALID, "prob_b": [0.0]}, "svmclassifier_c6", id="prob_b_length"),
    pytest.param({**VALID, "prob_a": [0.0, 1.0], "prob_b": [0.0, 1.0]}, "svmclassifier_c7", id="prob_per_pair"),
    pytest.param({**VALID, "kernel_params": [0.5, 0.0]}, "attr_length", id="kernel_params"),
    pytest.param({**VALID, "kernel_type": "CUBIC"}, "attr_allowed", id="kernel_type"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, 1, [4, 3], attrs)


def test_a_valid_model_validates_clean() -> None:
    assert validation_errors(OP, 1, X, svc(3, proba=True), 2) == []
