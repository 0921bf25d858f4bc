"""Flatten: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

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

OP = "Flatten"
X = Seeded(1234).f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, dict(axis=0), [X], all_since(OP), id="axis0"),
    OracleCase(OP, dict(axis=-2), [X], all_since(OP, 11), id="neg"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


SHAPES = [
    shape_case(OP, 1, [[2, 3, 4]]),
    shape_case(OP, 1, [[2, 3, 4]], {"axis": 0}),
    shape_case(OP, 9, [[2, 3, 4]], {"axis": 3}),
    shape_case(OP, 11, [[2, 3, 4]], {"axis": -1}),
    shape_case(OP, 13, [[2, 3, 4, 5]], {"axis": -4}),
    shape_case(OP, 25, [[6]], {"axis": 1}),
]

REJECTED = [
    (shape_case(OP, 1, [[2, 3]], {"axis": -1}), "flatten_c1"),
    (shape_case(OP, 13, [[2, 3]], {"axis": 3}), "flatten_c1"),
]


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)
