"""Bernoulli: certain draws (p 0 or 1) against onnx.reference, random draws of onnx.reference and onnxruntime passing
conform's law check beside ours, the output type (dtype, else the input's), the shape formula against onnx, rejected
nodes. The law itself is tests/ops/test_random_laws.py's."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto

from tests.helpers import (
    OracleCase,
    all_since,
    assert_draws_pass_the_law,
    assert_examples_match_kernel_and_formula,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    shape_tests,
    version,
)
from tests.helpers.random_draws import law_problems

OP = "Bernoulli"
CERTAIN = np.array([[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]], np.float32)

# p = 0 and p = 1 leave nothing to chance: the draws two implementations must agree on
CASES = [
    OracleCase(OP, {}, [CERTAIN], all_since(OP), id="input_type"),
    OracleCase(OP, dict(dtype=TensorProto.INT64, seed=2.0), [CERTAIN.astype(np.float64)], all_since(OP), id="int64"),
    OracleCase(OP, dict(dtype=TensorProto.BOOL), [CERTAIN.astype(np.float16)], all_since(OP), id="bool"),
    OracleCase(OP, dict(dtype=TensorProto.UINT8), [np.ones((0, 3), np.float32)], all_since(OP), id="empty"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


MIXED = np.array([0.0, 0.25, 0.5, 0.75, 1.0] * 8, np.float32).reshape(5, 8)


@pytest.mark.parametrize(("opset", "inputs", "attrs", "oracles"), [
    (15, [MIXED], {}, ("ref",)),  # onnxruntime: see the next test
    (15, [MIXED.astype(np.float64)], dict(dtype=TensorProto.DOUBLE, seed=1.0), ("ref",)),
    (22, [MIXED], dict(dtype=TensorProto.INT8), ("ref",)),  # onnxruntime stops at opset 21
    (22, [MIXED.astype(np.float16)], dict(dtype=TensorProto.BOOL), ("ref",)),
    (22, [MIXED.astype(ml_dtypes.bfloat16)], {}, ("ref",)),  # without dtype: the input's bfloat16
])
def test_other_draws_pass_the_law_check(opset: int, inputs: list[np.ndarray], attrs: dict[str, Any],
                                        oracles: tuple[str, ...]) -> None:
    assert_draws_pass_the_law(OP, opset, inputs, attrs, oracles=oracles)


def test_onnxruntime_draws_the_complement_of_p() -> None:
    """onnxruntime's gap (conformance/expectations/onnxruntime.yaml): 1 with probability 1 - p, so p = 0 gives 1 and
    p = 1 gives 0, which conform's law check reports. When this fails, onnxruntime is fixed: drop the entry."""
    model, feeds = one_node_model(OP, 15, [CERTAIN], {}, 1)
    (y,) = run_onnxruntime(model, feeds)
    np.testing.assert_array_equal(y, 1 - CERTAIN)
    problems = law_problems(version("ai.onnx", OP, 15), [CERTAIN], {"dtype": None, "seed": None}, {"output": y})
    assert problems and "where p is 0 or 1" in problems[0]


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


@pytest.mark.parametrize("p", [-0.25, 1.5, np.nan])
def test_kernel_rejects_a_probability_outside_0_1(p: float) -> None:
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        run("ai.onnx", OP, 22, [np.array([0.5, p], np.float32)])


SHAPES = [shape_case(OP, v, [shape], attrs) for v in all_since(OP) for shape in ([2, 3], [4, 0])
          for attrs in ({}, {"dtype": TensorProto.INT32})]
REJECTED = [
    (shape_case(OP, 15, [np.array([0.5, 1.5], np.float32)]), "bernoulli_c1"),
    (shape_case(OP, 22, [np.array([-0.5], np.float32)]), "bernoulli_c1"),
    (shape_case(OP, 15, [[2]], {"dtype": TensorProto.STRING}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
