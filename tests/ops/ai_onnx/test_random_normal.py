"""RandomNormal: deterministic draws (scale 0) against onnx.reference, random draws of onnx.reference and onnxruntime
passing conform's law check beside ours, the shape formula against onnx, rejected nodes. The law itself (mean,
spread) is tests/ops/test_random_laws.py's."""

from __future__ import annotations

from typing import Any

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

OP = "RandomNormal"

# with scale 0 every value is the mean: the one draw two implementations must agree on
CASES = [
    OracleCase(OP, dict(shape=[2, 3], mean=1.5, scale=0.0), [], all_since(OP), id="scale0"),
    OracleCase(OP, dict(shape=[4], mean=-2.25, scale=0.0, dtype=TensorProto.DOUBLE), [], all_since(OP), id="double"),
    OracleCase(OP, dict(shape=[3, 1], mean=0.5, scale=0.0, dtype=TensorProto.FLOAT16, seed=2.0), [], all_since(OP),
               id="float16"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("opset", "attrs", "oracles"), [
    (1, dict(shape=[3, 4], mean=2.0, scale=0.5), ("ref", "ort")),
    (1, dict(shape=[5], dtype=TensorProto.DOUBLE, seed=3.0), ("ref", "ort")),
    (22, dict(shape=[2, 2, 2], dtype=TensorProto.FLOAT16, scale=3.0), ("ref",)),  # onnxruntime stops at opset 21
    (22, dict(shape=[3, 5], dtype=TensorProto.BFLOAT16, mean=-4.0), ("ref",)),
])
def test_other_draws_pass_the_law_check(opset: int, attrs: dict[str, Any], oracles: tuple[str, ...]) -> None:
    assert_draws_pass_the_law(OP, opset, [], attrs, oracles=oracles)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


def test_kernel_rejects_a_negative_scale() -> None:
    with pytest.raises(ValueError, match="scale"):
        run("ai.onnx", OP, 22, [], shape=[2], scale=-1.0)


SHAPES = [shape_case(OP, v, [], attrs) for v in all_since(OP)
          for attrs in ({"shape": [2, 3]}, {"shape": [0, 4], "dtype": TensorProto.DOUBLE}, {"shape": [5]})]
REJECTED = [
    (shape_case(OP, 1, [], {"shape": [2, -1]}), "attr_range"),
    (shape_case(OP, 1, [], {"shape": [2], "scale": -0.5}), "attr_range"),
    (shape_case(OP, 1, [], {"shape": [2], "dtype": TensorProto.INT32}), "attr_allowed"),
    (shape_case(OP, 1, [], {"shape": [2], "dtype": TensorProto.BFLOAT16}), "attr_allowed"),  # from opset 22
    (shape_case(OP, 22, [], {}), "attr_required"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
