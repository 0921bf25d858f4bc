"""Constant: the kernel against onnx.reference for each value attribute, and the one-value constraint."""

from __future__ import annotations

import pytest
from onnx import numpy_helper

from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    assert_matches_oracle,
    assert_ranges_exercised,
    oracle_params,
    rejection_params,
    reported_checks,
    shape_case,
)

OP = "Constant"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, dict(value=numpy_helper.from_array(f32(2, 3))), [], all_since(OP), id="tensor"),
    OracleCase(OP, dict(value_float=1.5), [], all_since(OP, 12), id="float"),
    OracleCase(OP, dict(value_ints=[1, 2, 3]), [], all_since(OP, 12), id="ints"),
    OracleCase(OP, dict(value_floats=[1.5, 2.0]), [], all_since(OP, 12), id="floats"),
    OracleCase(OP, dict(value_int=7), [], all_since(OP, 12), id="int"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


REJECTED = [(shape_case(OP, 12, [], {"value_int": 1, "value_ints": [1, 2]}), "constant_c1")]


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)
