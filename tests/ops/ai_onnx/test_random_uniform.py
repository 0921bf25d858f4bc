"""RandomUniform: deterministic draws (low equal to high) against onnx.reference, random draws of onnx.reference and
onnxruntime passing conform's law check beside ours, the shape formula against onnx, rejected nodes. The law itself
is tests/ops/test_random_laws.py's."""

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

OP = "RandomUniform"

# with low equal to high the interval holds one value: the one draw two implementations must agree on
CASES = [
    OracleCase(OP, dict(shape=[2, 3], low=0.75, high=0.75), [], all_since(OP), id="point"),
    OracleCase(OP, dict(shape=[4], low=-3.0, high=-3.0, dtype=TensorProto.DOUBLE, seed=1.0), [], all_since(OP),
               id="double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("opset", "attrs", "oracles"), [
    (1, dict(shape=[3, 4], low=-2.0, high=5.0), ("ref", "ort")),
    # the bounds as float16 holds them; onnxruntime draws no float16
    (1, dict(shape=[50], dtype=TensorProto.FLOAT16, low=0.1, high=0.2), ("ref",)),
    (22, dict(shape=[2, 5], dtype=TensorProto.DOUBLE, seed=9.0), ("ref",)),  # onnxruntime stops at opset 21
])
def test_other_draws_pass_the_law_check(opset: int, attrs: dict[str, Any], oracles: tuple[str, ...]) -> None:
    assert_draws_pass_the_law(OP, opset, [], attrs, oracles=oracles)


def test_float16_bounds_are_the_rounded_ones() -> None:
    """Values of a float16 draw lie in [low, high] as float16 rounds them (0.1 rounds down to 0.0999755859375)."""
    (y,) = run("ai.onnx", OP, 22, [], shape=[2000], low=0.1, high=0.2, dtype=TensorProto.FLOAT16, seed=4.0)
    assert y.dtype == np.float16
    assert float(y.min()) >= float(np.float16(0.1)) and float(y.max()) <= float(np.float16(0.2))


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


def test_kernel_rejects_low_above_high() -> None:
    with pytest.raises(ValueError, match="low"):
        run("ai.onnx", OP, 22, [], shape=[2], low=2.0, high=1.0)


SHAPES = [shape_case(OP, v, [], attrs) for v in all_since(OP)
          for attrs in ({"shape": [2, 3]}, {"shape": [1, 0, 2], "dtype": TensorProto.FLOAT16})]
REJECTED = [
    (shape_case(OP, 1, [], {"shape": [-3]}), "attr_range"),
    (shape_case(OP, 1, [], {"shape": [2], "low": 1.5, "high": 0.5}), "randomuniform_c1"),
    (shape_case(OP, 22, [], {"shape": [2], "dtype": TensorProto.BOOL}), "attr_allowed"),
    (shape_case(OP, 1, [], {}), "attr_required"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
