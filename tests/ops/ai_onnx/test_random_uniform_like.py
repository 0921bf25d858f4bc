"""RandomUniformLike: deterministic draws (low equal to high) against onnx.reference, random draws of
onnx.reference and onnxruntime passing conform's law check beside ours, the shape formula against onnx, rejected
nodes. The law itself is tests/ops/test_random_laws.py's."""

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

OP = "RandomUniformLike"

CASES = [
    OracleCase(OP, dict(low=0.25, high=0.25), [np.zeros((2, 3), np.float32)], all_since(OP), id="input_type"),
    OracleCase(OP, dict(low=2.0, high=2.0, dtype=TensorProto.FLOAT16, seed=3.0), [np.ones((4,), np.uint8)],
               all_since(OP), id="dtype_over_uint8_input"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("opset", "inputs", "attrs", "oracles"), [
    (1, [np.zeros((3, 4), np.float64)], dict(low=-1.0, high=1.0), ("ref", "ort")),
    (1, [np.zeros((6,), np.int8)], dict(dtype=TensorProto.FLOAT, seed=2.0), ("ref", "ort")),
    (22, [np.zeros((2, 2), np.float16)], dict(low=10.0, high=11.0), ("ref",)),  # onnxruntime stops at opset 21
])
def test_other_draws_pass_the_law_check(opset: int, inputs: list[np.ndarray], attrs: dict[str, Any],
                                        oracles: tuple[str, ...]) -> None:
    assert_draws_pass_the_law(OP, opset, inputs, attrs, oracles=oracles)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


def test_kernel_rejects_low_above_high() -> None:
    with pytest.raises(ValueError, match="low"):
        run("ai.onnx", OP, 1, [np.zeros((2,), np.float32)], low=1.0, high=0.0)


SHAPES = [shape_case(OP, v, [shape], attrs) for v in all_since(OP) for shape in ([2, 3], [0])
          for attrs in ({}, {"dtype": TensorProto.FLOAT16})]
REJECTED = [
    (shape_case(OP, 1, [[2]], {"low": 3.0}), "randomuniformlike_c1"),  # above the default high 1
    (shape_case(OP, 1, [[2]], {"dtype": TensorProto.BFLOAT16}), "attr_allowed"),  # from opset 22
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
