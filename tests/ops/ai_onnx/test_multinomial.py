"""Multinomial: draws with one possible class per row against onnxruntime, random draws of onnxruntime passing
conform's law check beside ours, -inf and +inf logits, the shape formula against onnx, rejected nodes. The law itself
is tests/ops/test_random_laws.py's. onnx.reference has no Multinomial; onnxruntime has opset 7 for float input and
int32 output only."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import TensorProto

from tests.helpers import (
    OracleCase,
    all_since,
    assert_draws_pass_the_law,
    assert_examples_match_kernel_and_formula,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "Multinomial"
INF = np.inf
ONE_CLASS = np.array([[0.5, -INF, -INF], [-INF, -INF, 3.0], [-INF, -1.0, -INF]], np.float32)

# a row whose other classes have logit -inf can draw one class only: the draws two implementations must agree on
CASES = [
    OracleCase(OP, dict(sample_size=4), [ONE_CLASS], all_since(OP), oracle="ort@7", id="one_class"),
    OracleCase(OP, dict(sample_size=1, seed=3.0), [ONE_CLASS[:1]], all_since(OP), oracle="ort@7", id="one_row"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("inputs", "attrs"), [
    ([np.array([[0.0, 1.0, 2.0], [3.0, -INF, 0.0]], np.float32)], dict(sample_size=50)),
    ([np.zeros((4, 6), np.float32)], dict(seed=5.0)),
])
def test_other_draws_pass_the_law_check(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_draws_pass_the_law(OP, 7, inputs, attrs, oracles=("ort",))


def test_a_positive_infinite_logit_takes_all_the_probability() -> None:
    logits = np.array([[0.0, INF, 5.0, INF]], np.float64)
    (y,) = run("ai.onnx", OP, 22, [logits], sample_size=200, dtype=TensorProto.INT64, seed=1.0)
    assert y.dtype == np.int64 and set(np.unique(y).tolist()) == {1, 3}


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


@pytest.mark.parametrize(("logits", "message"), [
    (np.array([[0.0, 1.0], [-INF, -INF]], np.float32), "row 1"),
    (np.array([[0.0, np.nan]], np.float32), "NaN"),
])
def test_kernel_rejects_a_row_without_a_distribution(logits: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, 7, [logits])


SHAPES = [shape_case(OP, v, [shape], attrs) for v in all_since(OP) for shape in ([2, 3], [0, 4])
          for attrs in ({}, {"sample_size": 5, "dtype": TensorProto.INT64})]
REJECTED = [
    (shape_case(OP, 7, [[2, 3]], {"sample_size": 0}), "attr_range"),
    (shape_case(OP, 7, [[2, 3]], {"dtype": TensorProto.FLOAT}), "attr_allowed"),
    (shape_case(OP, 22, [[2, 0]]), "multinomial_c1"),
    (shape_case(OP, 22, [[6]]), "rank"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
