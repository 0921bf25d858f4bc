"""Slice: the kernel against onnx.reference, shape formulas against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

from typing import Any

import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    formula_shapes,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_id,
    shape_tests,
    symbolic_shape,
    version,
)

OP = "Slice"
X = Seeded(1234).f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, dict(starts=[1, 0], ends=[100, -1], axes=[1, 3]), [X], all_since(OP, 1, 9), id="attr"),
    OracleCase(OP, {}, [X, i64(1, -1), i64(3, -100), i64(1, 3), i64(1, -2)], all_since(OP, 10), id="neg_step"),
    OracleCase(OP, {}, [X, i64(-10, 0), i64(10, 1000)], all_since(OP, 10), id="clamp"),
    OracleCase(OP, {}, [X, i64(3), i64(-1000), i64(2), i64(-1)], all_since(OP, 10), id="backward_all"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


BIG = 2**63 - 1
INPUT_OPSETS = (10, 11, 13)
# opset 1: starts, ends and axes are attributes (onnx infers no shape for a permuted `axes`)
ATTRIBUTE_SLICES: list[tuple[list[int], dict[str, Any], list[int]]] = [
    ([5, 6], {"starts": [1], "ends": [3]}, [2, 6]),
    ([5, 6], {"starts": [-2, 0], "ends": [1000, -1]}, [2, 5]),
    ([5, 6, 7], {"starts": [0, 4], "ends": [2, 1], "axes": [2, 0]}, [0, 6, 2]),
    ([5, 6], {"starts": [10], "ends": [20], "axes": [1]}, [5, 0]),
]
SHAPES = [shape_case(OP, 1, [shape], attrs, not_inferred_by_onnx={0: want} if attrs.get("axes") == [2, 0] else {})
          for shape, attrs, want in ATTRIBUTE_SLICES]
SHAPES += [shape_case(OP, opset, inputs) for opset in INPUT_OPSETS for inputs in (
    [[5, 6], i64(1), i64(3)],
    [[5, 6, 7], i64(0, 1), i64(BIG, 5), i64(2, 1), i64(2, 3)],
    [[10], i64(-1), i64(-BIG), None, i64(-3)],
    [[10, 4], i64(8), i64(2), i64(0), i64(-2)],
    [[10, 4], i64(2), i64(8), i64(0), i64(-1)],
    [[10, 4], i64(-3), i64(-1), i64(-1)],
)]

REJECTED = [(shape_case(OP, 1, [[5, 6]], {"starts": [0], "ends": [1], "axes": [2]}), "slice_c1")]
REJECTED += [(shape_case(OP, opset, inputs), check) for opset in INPUT_OPSETS for inputs, check in (
    ([[5, 6], i64(0), i64(1), i64(0), i64(0)], "slice_c3"),
    ([[5, 6], i64(0), i64(1), i64(3)], "slice_c1"),
    ([[5, 6], i64(0, 0), i64(1, 1), i64(1, -1)], "slice_c2"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("shape", "attrs", "want"), [pytest.param(*s, id=shape_id(shape_case(OP, 1, [s[0]], s[1])))
                                                     for s in ATTRIBUTE_SLICES])
def test_attribute_slice_shapes(shape: list[int], attrs: dict[str, Any], want: list[int]) -> None:
    """Every dim, also where onnx leaves one unknown."""
    assert formula_shapes(version("ai.onnx", OP, 1), [shape], attrs) == [want]


def test_symbolic_batch_dim() -> None:
    sliced = symbolic_shape(OP, 13, [[Sym("N"), 10], [1], [1], [1]], values={"starts": [2], "ends": [-2], "axes": [1]})
    assert sliced == ["N", "6"]
