"""ReduceMean: the kernel against onnx.reference, the shape formula against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
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


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


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


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    shape = symbolic_shape(OP, 18, [[Sym("N"), 3, 4], [1]], {"keepdims": 0}, {"axes": [-1]})
    assert shape == ["N", "3"]


def test_an_empty_axes_attribute_reduces_every_axis() -> None:
    """axes=[] (an attribute onnx.helper cannot even write untyped) means every axis, in formula and kernel."""
    for opset in ATTR_OPSETS:
        assert symbolic_shape(OP, opset, [[2, 3, 4]], {"axes": [], "keepdims": 0}) == []
        assert symbolic_shape(OP, opset, [[2, 3, 4]], {"axes": []}) == ["1", "1", "1"]
