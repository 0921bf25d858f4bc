"""ConstantOfShape: the kernel against onnx.reference, the shape formula against onnx, examples, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper

from tests.helpers import (
    OracleCase,
    assert_examples_match_kernel_and_formula,
    assert_versions_exercised,
    i64,
    inferred,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

OP = "ConstantOfShape"

RTOL = 1e-6  # OracleCase takes it for atol too: at least as strict as the former rtol=1e-5, atol=1e-6
CASES = [
    OracleCase(OP, {}, [i64(2, 3)], onnx_versions(OP), rtol=RTOL, id="default"),
    OracleCase(OP, dict(value=helper.make_tensor("value", onnx.TensorProto.INT32, [1], [7])), [i64(4, 1, 2)],
               onnx_versions(OP), rtol=RTOL, id="int32"),
    OracleCase(OP, {}, [i64()], onnx_versions(OP), rtol=RTOL, id="scalar"),
    OracleCase(OP, {}, [i64(3, 0)], onnx_versions(OP), rtol=RTOL, id="empty"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_every_version_has_a_kernel_case() -> None:
    assert_versions_exercised(OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("opset", "inputs", "attrs", "message"), [
    pytest.param(9, [i64(2, -1)], {}, "negative", id="v9-negative_dim"),
    pytest.param(9, [i64(2)], {"value": np.array([1, 2], np.float32)}, "one element", id="v9-two_element_value"),
])
def test_kernel_rejects_invalid_input(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any],
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, opset, inputs, **attrs)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


SHAPES = [shape_case(OP, v, [shape]) for v in onnx_versions(OP) for shape in (i64(2, 3), i64(), i64(5, 0, 1))]
REJECTED = [(shape_case(OP, 20, [i64(3, -1)]), "constantofshape_c1")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_shape_is_unknown_without_the_input_values() -> None:
    result = inferred(version("ai.onnx", OP, 9), [[2]])
    assert result.outputs == [None], f"{OP}@9: {result.outputs} without values"
    assert not result.problems, f"{OP}@9: {result.problems}"
