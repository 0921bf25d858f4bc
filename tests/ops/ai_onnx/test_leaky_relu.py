"""LeakyRelu: the kernel against onnx.reference and the shape formula against onnx's shape inference."""

from __future__ import annotations

import numpy as np
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
    shape_case,
    shape_params,
)

OP = "LeakyRelu"
f32 = Seeded(1234).f32
X = f32(3, 4, 5)

CASES = [
    OracleCase(OP, dict(alpha=0.2), [X], all_since(OP)),
    OracleCase(OP, {}, [X.astype(np.float16)], all_since(OP), rtol=1e-3, id="fp16"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


SHAPES = [
    shape_case(OP, 6, [[2, 3]], {"alpha": 0.2}),
    shape_case(OP, 16, [[7]]),
    shape_case(OP, 1, [[2, 2]], {}, not_inferred_by_onnx={0: [2, 2]}),
]


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)
