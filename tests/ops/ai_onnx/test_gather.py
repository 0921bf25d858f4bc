"""Gather: the kernel against onnx.reference, the shape formula against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Gather"
DATA = Seeded(1234).f32(3, 4, 5)
I32 = np.array([[2, 0], [1, 1]], np.int32)

CASES = [
    OracleCase(OP, {}, [DATA, i64(2, 0, 1)], all_since(OP), id="axis0"),
    OracleCase(OP, dict(axis=-1), [DATA, I32], all_since(OP), id="negative_axis_int32"),
    OracleCase(OP, dict(axis=1), [DATA, np.array(3, np.int64)], all_since(OP), id="scalar_index"),
    OracleCase(OP, dict(axis=1), [DATA, i64(-1, -4, 0)], all_since(OP, 11), id="negative_indices"),
    OracleCase(OP, dict(axis=2), [DATA, np.zeros((2, 0), np.int64)], all_since(OP), id="no_indices"),
    OracleCase(OP, {}, [np.array([True, False, True]), i64(2, 2, 1)], all_since(OP), id="bool"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (1, 11, 13)
SHAPES = [shape_case(OP, opset, [data, indices], attrs) for opset in OPSETS for data, indices, attrs in (
    ([3, 4, 5], i64(0, 2), {}),
    ([3, 4, 5], np.array([[1, 0, 3]], np.int64), {"axis": 1}),
    ([3, 4, 5], np.array(4, np.int64), {"axis": -1}),
    ([6], np.zeros((2, 0), np.int64), {}),
)]
SHAPES += [shape_case(OP, opset, [[3, 4], i64(-1, -3)], {"axis": 0}) for opset in (11, 13)]

REJECTED = [(shape_case(OP, opset, [[3, 4], i64(0)], {"axis": 2}), "gather_c2") for opset in OPSETS]
REJECTED += [(shape_case(OP, opset, [[3, 4], i64(4)], {"axis": 1}), "gather_c3") for opset in OPSETS]
REJECTED += [(shape_case(OP, opset, [[], i64(0)]), "gather_c1") for opset in OPSETS]
REJECTED += [(shape_case(OP, 1, [[3, 4], i64(-1)]), "gather_c3")]  # opset 1 has no negative indices
REJECTED += [(shape_case(OP, opset, [[3, 4], i64(-4)]), "gather_c3") for opset in (11, 13)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("since", "index"), [(1, -1), (1, 3), (11, 3), (11, -4), (13, -4)])
def test_kernel_rejects_an_index_outside_its_bounds(since: int, index: int) -> None:
    with pytest.raises(ValueError, match="outside"):
        kernel("ai.onnx", OP, since)(DATA, i64(0, index))


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 4, 5], [2, 3]], {"axis": 1}) == ["N", "2", "3", "5"]
    assert symbolic_shape(OP, 13, [[Sym("N"), 4], [Sym("K")]]) == ["K", "4"]
