"""RandomNormalLike: deterministic draws (scale 0) against onnx.reference, random draws of onnx.reference and
onnxruntime passing conform's law check beside ours, the output type (dtype, else the input's), the shape formula
against onnx, rejected nodes. The law itself is tests/ops/test_random_laws.py's."""

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

OP = "RandomNormalLike"

CASES = [
    OracleCase(OP, dict(mean=1.5, scale=0.0), [np.zeros((2, 3), np.float32)], all_since(OP), id="input_type"),
    OracleCase(OP, dict(mean=-0.5, scale=0.0, dtype=TensorProto.DOUBLE), [np.ones((4,), np.int64)], all_since(OP),
               id="dtype_over_int_input"),
    OracleCase(OP, dict(scale=0.0, seed=1.0), [np.zeros((1, 2, 2), np.float16)], all_since(OP), id="float16"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("opset", "inputs", "attrs", "oracles"), [
    (1, [np.zeros((3, 4), np.float32)], dict(mean=2.0, scale=0.5), ("ref", "ort")),
    (1, [np.zeros((5,), np.int32)], dict(dtype=TensorProto.DOUBLE), ("ref", "ort")),
    (22, [np.zeros((2, 2), np.bool_)], dict(dtype=TensorProto.FLOAT16, scale=3.0), ("ref",)),  # ORT: up to 21
])
def test_other_draws_pass_the_law_check(opset: int, inputs: list[np.ndarray], attrs: dict[str, Any],
                                        oracles: tuple[str, ...]) -> None:
    assert_draws_pass_the_law(OP, opset, inputs, attrs, oracles=oracles)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


def test_kernel_needs_dtype_for_an_input_type_the_output_cannot_take() -> None:
    with pytest.raises(ValueError, match="float type"):
        run("ai.onnx", OP, 22, [np.zeros((2,), np.int32)])


SHAPES = [shape_case(OP, v, [shape], attrs) for v in all_since(OP) for shape in ([2, 3], [4, 0, 1])
          for attrs in ({}, {"dtype": TensorProto.DOUBLE})]
REJECTED = [
    (shape_case(OP, 1, [[2]], {"scale": -1.0}), "attr_range"),
    (shape_case(OP, 22, [[2]], {"dtype": TensorProto.INT64}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
