"""ReduceMean: the kernel against onnx.reference, the shape formula against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    assert_matches_oracle,
    assert_ranges_exercised,
    assert_shapes_match_onnx,
    i64,
    oracle_params,
    rejection_params,
    reported_checks,
    shape_case,
    shape_params,
    symbolic_shape,
)

OP = "ReduceMean"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, dict(axes=[0, 2], keepdims=0), [f32(2, 3, 4)], all_since(OP, 1, 17), id="axes_attr"),
    OracleCase(OP, {}, [f32(2, 3, 4)], all_since(OP), id="all"),
    OracleCase(OP, dict(keepdims=1), [f32(2, 3, 4), i64(-1, 1)], all_since(OP, 18), id="axes_input"),
    OracleCase(OP, dict(noop_with_empty_axes=1), [f32(2, 3, 4), i64()], all_since(OP, 18), id="noop"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


# axes are an attribute up to 13, an optional input from 18
ATTR_OPSETS = (1, 11, 13)
SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in ATTR_OPSETS
          for attrs in ({}, {"keepdims": 0}, {"axes": [1]}, {"axes": [0, -1], "keepdims": 0})]
SHAPES += [
    shape_case(OP, 18, [[2, 3, 4]]),
    shape_case(OP, 18, [[2, 3, 4]], {"keepdims": 0}),
    shape_case(OP, 18, [[2, 3, 4], i64(1)]),
    shape_case(OP, 18, [[2, 3, 4], i64(0, -1)], {"keepdims": 0}),
    shape_case(OP, 18, [[2, 3, 4]], {"noop_with_empty_axes": 1}),
    shape_case(OP, 18, [[2, 3, 4], np.zeros(0, np.int64)], {"noop_with_empty_axes": 1}),
]

REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axes": [2]}), "reducemean_c1") for opset in ATTR_OPSETS]
REJECTED.append((shape_case(OP, 18, [[2, 3], i64(-3)]), "reducemean_c1"))


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)


def test_symbolic_batch_dim() -> None:
    shape = symbolic_shape(OP, 18, [[Sym("N"), 3, 4], [1]], {"keepdims": 0}, {"axes": [-1]})
    assert shape == ["N", "3"]
