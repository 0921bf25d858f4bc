"""ReduceL1: the kernel against onnx.reference and onnxruntime, the shape formula against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "ReduceL1"
data = Seeded(4105)
f32 = data.f32
ATTR, INPUT = all_since(OP, 1, 17), all_since(OP, 18)
WRAPS = np.array([[2**30, -(2**30), 2**30], [-5, 6, -7]], np.int32)  # |x| sums beyond int32

CASES = [
    OracleCase(OP, dict(axes=[0, 2], keepdims=0), [f32(2, 3, 4)], ATTR, id="axes_attr"),
    OracleCase(OP, {}, [f32(2, 3, 4)], all_since(OP), id="all"),
    OracleCase(OP, {}, [np.full((), 2.5, np.float32)], all_since(OP), id="scalar"),
    OracleCase(OP, dict(axes=[1]), [np.zeros((2, 0, 3), np.float32)], ATTR, id="empty_set_attr"),
    OracleCase(OP, dict(keepdims=0), [f32(2, 3, 4), i64(-1, 0)], INPUT, id="axes_input"),
    OracleCase(OP, {}, [np.zeros((2, 0, 3), np.float32), i64(1)], INPUT, id="empty_set"),
    OracleCase(OP, dict(noop_with_empty_axes=1), [f32(2, 3), i64()], INPUT, id="noop"),
    OracleCase(OP, dict(noop_with_empty_axes=1), [f32(2, 3)], INPUT, id="noop_no_axes"),
    OracleCase(OP, dict(keepdims=0), [WRAPS, i64(1)], INPUT, id="int32_wraps"),
    OracleCase(OP, dict(axes=[-1]), [data.ints(-9, 9, (3, 4), np.int64)], ATTR, id="int64"),
    OracleCase(OP, {}, [data.f32(3, 4).astype(np.float16), i64(1)], INPUT, oracle="ort", rtol=2e-3,
               id="float16_ort"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_an_empty_axes_attribute_reduces_every_axis() -> None:
    x = f32(2, 3)
    (y,) = run("ai.onnx", OP, 11, [x], axes=[])
    (want,) = run("ai.onnx", OP, 11, [x], axes=[0, 1])
    assert y.shape == (1, 1)
    np.testing.assert_array_equal(y, want)


def test_a_repeated_axis_is_refused_by_the_kernel() -> None:
    with pytest.raises(ValueError, match="repeated"):
        run("ai.onnx", OP, 18, [f32(2, 3), i64(1, -1)])


SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in ATTR
          for attrs in ({}, {"keepdims": 0}, {"axes": [1]}, {"axes": [0, -1], "keepdims": 0})]
SHAPES += [
    shape_case(OP, 18, [[2, 3, 4]]),
    shape_case(OP, 18, [[2, 3, 4]], {"keepdims": 0}),
    shape_case(OP, 18, [[2, 3, 4], i64(1)]),
    shape_case(OP, 18, [[2, 3, 4], i64(0, -1)], {"keepdims": 0}),
    shape_case(OP, 18, [[2, 3, 4]], {"noop_with_empty_axes": 1}),
    shape_case(OP, 18, [[2, 3, 4], np.zeros(0, np.int64)], {"noop_with_empty_axes": 1}),
    shape_case(OP, 18, [[2, 0, 4], i64(1)], {"keepdims": 0}),
    shape_case(OP, 18, [[]], {"keepdims": 0}),
]

REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axes": axes}), check) for opset in ATTR
            for axes, check in (([2], "reducel1_c1"), ([1, -1], "reducel1_c2"), ([0, 0], "reducel1_c2"))]
REJECTED += [(shape_case(OP, 18, [[2, 3], axes]), check)
             for axes, check in ((i64(-3), "reducel1_c1"), (i64(0, -2), "reducel1_c2"))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    shape = symbolic_shape(OP, 18, [[Sym("N"), 3, 4], [1]], {"keepdims": 0}, {"axes": [-1]})
    assert shape == ["N", "3"]
