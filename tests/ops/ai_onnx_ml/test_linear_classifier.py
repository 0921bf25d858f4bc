"""LinearClassifier: the kernel against onnxruntime (a row of coefficients per class with every post transform; a
single row for two classes, as onnxruntime completes it; string labels; onnx.reference where it computes the
same), the shape formulas against onnx and onnxruntime, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_matches_oracle, assert_registry_ranges_exercised, oracle_params
from tests.helpers.ml_models import DOMAIN, assert_shapes_match, checks, formula_shapes, validation_errors

OP = "LinearClassifier"
X = np.array([[1.0, 0.5, -1.0], [0.25, -0.75, 2.0], [-1.5, 1.0, 0.0], [0.0, 0.0, 0.5]], dtype=np.float32)
THREE = dict(coefficients=[0.5, -0.25, 1.0, -0.75, 0.125, 0.5, 0.25, 1.0, -0.5], intercepts=[0.25, -0.5, 0.0],
             classlabels_ints=[2, 4, 8])
TWO_ROWS = dict(coefficients=[-0.5, 0.25, -1.0, 0.5, -0.25, 1.0], intercepts=[0.125, -0.125],
                classlabels_ints=[0, 1])  # as skl2onnx writes a binary logistic regression
ONE_ROW = dict(coefficients=[0.5, -0.25, 1.0], intercepts=[0.125], classlabels_ints=[3, 7])


def strings(attrs: dict[str, Any], labels: list[str]) -> dict[str, Any]:
    """`attrs` with string labels instead of integer ones."""
    return {**{k: v for k, v in attrs.items() if k != "classlabels_ints"}, "classlabels_strings": labels}


def case(attrs: dict[str, Any], x: np.ndarray = X, oracle: str = "ort", id: str = "") -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), n_out=2, oracle=oracle, rtol=1e-5, id=id, domain=DOMAIN)


POSTS = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO")
CASES = [
    *[case({**THREE, "post_transform": p}, id=f"three_{p}") for p in (*POSTS, "PROBIT")],
    case({**THREE, "multi_class": 1, "post_transform": "SOFTMAX"}, id="multinomial"),
    *[case({**TWO_ROWS, "post_transform": p}, id=f"two_rows_{p}") for p in POSTS],
    *[case({**ONE_ROW, "post_transform": p}, id=f"one_row_{p}") for p in POSTS],
    case(strings(THREE, ["a", "b", "c"]), id="strings"),
    case(strings(ONE_ROW, ["no", "yes"]), id="strings_one_row"),
    case(THREE, x=X.astype(np.float64), id="double"),
    case(TWO_ROWS, x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int64), id="int64"),
    case(ONE_ROW, x=np.array([[1, 0, -1], [2, 1, 0]], dtype=np.int32), id="int32"),
    case({**THREE, "post_transform": "LOGISTIC"}, oracle="ref", id="reference_logistic"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize("attrs", [pytest.param(THREE, id="three"), pytest.param(TWO_ROWS, id="two_rows"),
                                   pytest.param(ONE_ROW, id="one_row")])
def test_shape_formulas_match_onnx_and_onnxruntime(attrs: dict[str, Any]) -> None:
    assert_shapes_match(OP, 1, X, attrs, 2)


def test_without_intercepts_the_rows_come_from_the_coefficients() -> None:
    assert formula_shapes(OP, 1, ["N", 3], {k: v for k, v in THREE.items() if k != "intercepts"}) == \
        [["N"], ["N", "3"]]


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({**THREE, "classlabels_strings": ["a", "b", "c"]}, "linearclassifier_c1", id="both_label_kinds"),
    pytest.param({**THREE, "coefficients": [0.5] * 8}, "linearclassifier_c2", id="partial_row"),
    pytest.param({**THREE, "classlabels_ints": [1, 2]}, "linearclassifier_c3", id="rows_per_class"),
    pytest.param({**ONE_ROW, "classlabels_ints": [1, 2, 3]}, "linearclassifier_c3", id="one_row_three_classes"),
    pytest.param({**THREE, "multi_class": 2}, "attr_allowed", id="multi_class"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, 1, [4, 3], attrs)


def test_a_valid_model_validates_clean() -> None:
    assert validation_errors(OP, 1, X, THREE, 2) == []
