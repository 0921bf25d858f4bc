"""Softmax: the kernel against onnx.reference/onnxruntime, the shape formula against onnx, rejected nodes."""

from __future__ import annotations

import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    assert_matches_oracle,
    assert_ranges_exercised,
    assert_shapes_match_onnx,
    oracle_params,
    rejection_params,
    reported_checks,
    shape_case,
    shape_params,
)

OP = "Softmax"
f32 = Seeded(1234).f32

CASES = [
    # the reference normalises along the last axis at opset 1/11 instead of coercing to 2-D
    OracleCase(OP, {}, [f32(2, 3, 4)], all_since(OP, 1, 12), oracle="ort", id="default"),
    OracleCase(OP, dict(axis=0), [f32(2, 3, 4)], all_since(OP, 1, 12), oracle="ort", id="axis0"),
    OracleCase(OP, dict(axis=-2), [f32(2, 3, 4)], all_since(OP, 11, 12), oracle="ort", id="axis_neg"),
    OracleCase(OP, {}, [f32(2, 3, 4)], all_since(OP, 13), id="default"),
    OracleCase(OP, dict(axis=0), [f32(2, 3, 4)], all_since(OP, 13), id="axis0"),
    OracleCase(OP, dict(axis=-2), [f32(2, 3, 4)], all_since(OP, 13), id="axis_neg"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in (1, 11, 13)
          for attrs in ({}, {"axis": 2}, *([{"axis": -3}] if opset >= 11 else []))]
REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axis": 2}), "softmax_c1") for opset in (1, 11, 13)]


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)
