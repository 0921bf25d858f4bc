"""PRelu: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

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

OP = "PRelu"
f32 = Seeded(1234).f32
X = f32(3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X, f32(5)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, {}, [f32(2, 3, 4, 4), f32(3, 1, 1)], all_since(OP, 7), id="channel"),
    OracleCase(OP, {}, [X, f32(3, 4, 5)], all_since(OP), id="same"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


OPSETS = (7, 9, 16)
SHAPES = [shape_case(OP, opset, shapes) for opset in OPSETS for shapes in ([[2, 3, 4], [3, 1]], [[2, 3], [1]])]
REJECTED = [(shape_case(OP, opset, shapes), "prelu_c1") for opset in OPSETS
            for shapes in ([[2, 3], [2]], [[3], [2, 3]])]


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)
