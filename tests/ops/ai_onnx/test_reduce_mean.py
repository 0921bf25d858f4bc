"""ReduceMean: the kernel against onnx.reference, the shape formula against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.runner.readings import followed_reading
from opset.formula import Sym
from opset.infer import infer_shapes
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
    version,
)
from tests.helpers.oracles import one_node_model, run_onnxruntime

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


@pytest.mark.parametrize(("since", "inputs", "attrs"), [
    (13, [np.zeros((2, 0), np.float32)], {"axes": [1]}), (18, [np.zeros((2, 0), np.float32), i64(1)], {}),
    (18, [np.zeros((0, 3), np.float32), None], {}),
])
def test_the_mean_of_an_empty_set_is_nan_or_zero_by_the_reading(since: int, inputs: list[Any], attrs: dict[str, Any]
                                                                ) -> None:
    """NaN for a float T, 0 for an integer T (no NaN there), as `ReduceMean`'s doc says; the readings name the other
    sources' answers and apply exactly where the set is empty."""
    floats = run("ai.onnx", OP, since, inputs, **attrs)[0]
    ints = run("ai.onnx", OP, since, [inputs[0].astype(np.int32), *inputs[1:]], **attrs)[0]
    assert np.isnan(floats).all() and floats.dtype == np.float32
    assert (ints == 0).all() and ints.dtype == np.int32 and ints.shape == floats.shape
    v = version("ai.onnx", OP, since)
    shapes, values = [list(inputs[0].shape)] + [None if x is None else list(x.shape) for x in inputs[1:]], \
        {"axes": inputs[1].tolist()} if len(inputs) > 1 and inputs[1] is not None else {}
    for element, reading in (("float", "reducemean_r1"), ("int32", "reducemean_r2")):
        result = infer_shapes(v, shapes, attrs, values, all_values_known=True,
                              input_types=[f"tensor({element})", "tensor(int64)"][:len(inputs)])
        assert [r.reading.id for r in result.readings] == [reading]
    full = infer_shapes(v, [[2, 3], *shapes[1:]], attrs, values, all_values_known=True,
                        input_types=["tensor(float)", "tensor(int64)"][:len(inputs)])
    assert full.readings == []  # a set that is not empty follows no reading


def test_onnxruntimes_zero_for_an_empty_float_mean_is_a_recorded_reading() -> None:
    x = np.zeros((2, 0), np.float32)
    got = run_onnxruntime(*one_node_model(OP, 18, [x, i64(1)], {"keepdims": 1}, 1, constants=(1,)))[0]
    assert (got == 0).all()
    assert followed_reading(version("ai.onnx", OP, 18), [x, i64(1)], {"keepdims": 1, "noop_with_empty_axes": 0},
                            [list(got.shape)]) == "reducemean_r1 (onnxruntime)"
