"""SpaceToDepth: the kernel against onnx.reference, the shape formula against onnx, rejected nodes."""

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

OP = "SpaceToDepth"
f32 = Seeded(1234).f32

CASES = [OracleCase(OP, dict(blocksize=2), [f32(1, 3, 4, 6)], all_since(OP), id="dcr")]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


OPSETS = (1, 13, 28)
SHAPES = [shape_case(OP, opset, [shape], {"blocksize": b}) for opset in OPSETS
          for shape, b in (([1, 3, 4, 6], 2), ([2, 1, 9, 3], 3))]
REJECTED = [(shape_case(OP, opset, [[1, 3, 4, 5]], {"blocksize": 2}), "spacetodepth_c1") for opset in OPSETS]


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)
