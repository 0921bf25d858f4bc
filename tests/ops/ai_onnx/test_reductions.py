"""Reduce* (L1, L2, LogSum, LogSumExp, Max, Mean, Min, Prod, Sum, SumSquare), one table: each kernel against
onnx.reference and onnxruntime on the cases every reduction shares (axes as attribute, then as input; every axis;
a scalar; an empty set; noop_with_empty_axes) and on its own (integer wrap-around and truncation, large values,
empty sets of every type ...); the shape formulas against onnx; rejected nodes; symbolic dims."""

from __future__ import annotations

import math
from collections.abc import Callable
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

OPS = ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin",
       "ReduceProd", "ReduceSum", "ReduceSumSquare")
SEEDS = {"ReduceSum": 4101, "ReduceProd": 4102, "ReduceMax": 4103, "ReduceMin": 4104, "ReduceL1": 4105,
         "ReduceL2": 4106, "ReduceSumSquare": 4107, "ReduceLogSum": 4108, "ReduceLogSumExp": 4109,
         "ReduceMean": 1234}
REPEATS_REFUSED = tuple(op for op in OPS if op != "ReduceMean")  # ReduceMean states no rule on repeated axes
DATA = {op: Seeded(seed) for op, seed in SEEDS.items()}


def axes_input_since(op: str) -> int:
    return 13 if op == "ReduceSum" else 18


def attr_opsets(op: str) -> tuple[int, ...]:
    return all_since(op, 1, axes_input_since(op) - 1)


def input_opsets(op: str) -> tuple[int, ...]:
    return all_since(op, axes_input_since(op))


def data_of(op: str) -> Callable[..., np.ndarray]:
    """The op's float32 case data: standard normal, or in [0.5, 2.5) for ReduceLogSum (every log finite)."""
    seeded = DATA[op]
    if op == "ReduceLogSum":
        return lambda *shape: (seeded.rng.random(shape) * 2 + 0.5).astype(np.float32)
    return seeded.f32


def shared_cases(op: str) -> list[OracleCase]:
    """The rows every reduction has (ReduceMean: no empty sets, whose mean is 0 / 0)."""
    x = data_of(op)
    attr, given = attr_opsets(op), input_opsets(op)
    rows = [
        OracleCase(op, dict(axes=[0, 2], keepdims=0), [x(2, 3, 4)], attr, id="axes_attr"),
        OracleCase(op, {}, [x(2, 3, 4)], all_since(op), id="all"),
        # onnx.reference fails on ReduceLogSumExp of a scalar (it squeezes the result to a numpy scalar)
        OracleCase(op, {}, [np.full((), 2.5, np.float32)], all_since(op), id="scalar",
                   oracle="ort" if op == "ReduceLogSumExp" else "ref"),
        OracleCase(op, dict(keepdims=0), [x(2, 3, 4), i64(-1, 0)], given, id="axes_input"),
        OracleCase(op, dict(noop_with_empty_axes=1), [x(2, 3), i64()], given, id="noop"),
        OracleCase(op, dict(noop_with_empty_axes=1), [x(2, 3)], given, id="noop_no_axes"),
    ]
    if op != "ReduceMean":
        rows += [OracleCase(op, dict(axes=[1]), [np.zeros((2, 0, 3), np.float32)], attr, id="empty_set_attr"),
                 OracleCase(op, {}, [np.zeros((2, 0, 3), np.float32), i64(1)], given, id="empty_set")]
    return rows


def int_log_sum_exp(x: np.ndarray) -> list[np.ndarray]:
    """Per row, log(sum(exp(x))) in Python floats, truncated toward zero."""
    return [np.array([[int(math.log(sum(math.exp(v) for v in row)))] for row in x.tolist()], x.dtype)]


def own_cases(op: str) -> list[OracleCase]:
    """Each reduction's own rows: what its arithmetic makes of integers, wide values and empty sets."""
    data, attr, given = DATA[op], attr_opsets(op), input_opsets(op)
    ints = np.array([[-4, -3, -4], [4, 4, 1], [3, -1, 0]], np.int32)
    float16 = OracleCase(op, {}, [data_of(op)(3, 4).astype(np.float16), i64(1)], given, oracle="ort", rtol=2e-3,
                         id="float16_ort")
    wraps = {"ReduceSum": [[2**31 - 1, 1], [-(2**31), -1]],  # int32 sums that leave the type's range
             "ReduceL1": [[2**30, -(2**30), 2**30], [-5, 6, -7]],  # |x| sums beyond int32
             "ReduceProd": [[65536, 65536, 3], [-(2**16), 2**15 + 1, 5]]}  # products beyond int32
    rows: dict[str, list[OracleCase]] = {
        "ReduceSum": [OracleCase(op, dict(axes=[-1]), [data.ints(-9, 9, (3, 4), np.int64)], attr, id="int64"),
                      OracleCase(op, dict(axes=[0]), [data.ints(0, 50, (4, 3), np.int32)], attr[1:], oracle="ort",
                                 id="int32_ort"), float16],
        "ReduceL1": [OracleCase(op, dict(axes=[-1]), [data.ints(-9, 9, (3, 4), np.int64)], attr, id="int64"),
                     float16],
        "ReduceProd": [OracleCase(op, dict(axes=[-1]), [data.ints(-3, 4, (3, 4), np.int64)], attr, id="int64"),
                       float16],
        "ReduceL2": [OracleCase(op, dict(axes=[-1]), [data.ints(-9, 9, (3, 4), np.int32)], attr,
                                id="int32_truncates"),
                     OracleCase(op, dict(keepdims=0), [data.ints(-9, 9, (3, 4), np.int64), i64(1)], given,
                                oracle="ort", id="int64_ort"),
                     OracleCase(op, {}, [data.f32(3, 4).astype(np.float64), i64(1)], given, rtol=1e-12, id="double"),
                     float16],
        "ReduceSumSquare": [OracleCase(op, dict(axes=[-1]), [data.ints(-9, 9, (3, 4), np.int32)], attr[1:],
                                       oracle="ort", id="int32_ort"),
                            OracleCase(op, dict(keepdims=0), [data.ints(-9, 9, (3, 4), np.int64), i64(1)], given,
                                       id="int64"), float16],
        "ReduceLogSum": [OracleCase(op, {}, [np.zeros((2, 3), np.float32), i64(1)], given, id="zero_sum"),
                         OracleCase(op, dict(axes=[1]), [data.ints(1, 9, (3, 4), np.int32)], attr[1:], oracle="ort",
                                    id="int32_ort"),
                         OracleCase(op, {}, [data.ints(1, 9, (3, 4), np.int64), i64(0)], all_since(op, 18, 27),
                                    oracle="ort", id="int64_ort"), float16],
        "ReduceLogSumExp": [
            OracleCase(op, dict(axes=[1]), [ints], attr, oracle=lambda: int_log_sum_exp(ints), id="int32_truncates"),
            OracleCase(op, {}, [ints.astype(np.int64), i64(1)], all_since(op, 18, 27),
                       oracle=lambda: int_log_sum_exp(ints.astype(np.int64)), id="int64_truncates"),
            OracleCase(op, {}, [np.array([[1000.0, 999.0], [-1000.0, -np.inf]]), i64(1)], given, rtol=1e-12,
                       id="large"),  # exp() overflows without the shift
            float16],
        "ReduceMean": [],
    }
    for extreme in ("ReduceMax", "ReduceMin"):
        rows[extreme] = [
            OracleCase(op, dict(axes=[1]), [np.zeros((2, 0), np.int32)], attr, id="empty_set_int32"),
            OracleCase(op, {}, [np.zeros((2, 0), np.uint8), i64(1)], given, id="empty_set_uint8"),
            OracleCase(op, {}, [np.zeros((2, 0), np.bool_), i64(1)], all_since(op, 20), id="empty_set_bool"),
            OracleCase(op, dict(keepdims=0), [data.ints(0, 2, (3, 4), np.bool_), i64(1)], all_since(op, 20),
                       id="bool"),
            OracleCase(op, dict(axes=[0]), [data.ints(-128, 128, (5, 3), np.int8)], all_since(op, 12, 17), id="int8"),
            OracleCase(op, {}, [data.f32(3, 4).astype(np.float16), i64(0)], given, oracle="ort", id="float16_ort")]
    if op in wraps:
        rows[op].append(OracleCase(op, dict(keepdims=0), [np.array(wraps[op], np.int32), i64(1)], given,
                                   id="int32_wraps"))
    return rows[op]


CASES = [c for op in OPS for c in shared_cases(op) + own_cases(op)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OPS, CASES)


@pytest.mark.parametrize("op", OPS)
def test_an_empty_axes_attribute_reduces_every_axis(op: str) -> None:
    """axes=[] (an attribute onnx.helper cannot even write untyped) means every axis, in formula and kernel."""
    x = data_of(op)(2, 3)
    (y,) = run("ai.onnx", op, 11, [x], axes=[])
    (want,) = run("ai.onnx", op, 11, [x], axes=[0, 1])
    assert y.shape == (1, 1)
    np.testing.assert_array_equal(y, want)
    for opset in attr_opsets(op):
        assert symbolic_shape(op, opset, [[2, 3, 4]], {"axes": [], "keepdims": 0}) == []


@pytest.mark.parametrize("op", REPEATS_REFUSED)
def test_a_repeated_axis_is_refused_by_the_kernel(op: str) -> None:
    with pytest.raises(ValueError, match="repeated"):
        run("ai.onnx", op, axes_input_since(op), [data_of(op)(2, 3), i64(1, -1)])


def test_an_integer_log_sum_without_a_logarithm_is_refused() -> None:
    with pytest.raises(ValueError, match="not finite"):
        run("ai.onnx", "ReduceLogSum", 13, [np.array([[1, -1], [2, 3]], np.int32)], axes=[1])


SHAPES = [shape_case(op, opset, [[2, 3, 4]], attrs) for op in OPS for opset in attr_opsets(op)
          for attrs in ({}, {"keepdims": 0}, {"axes": [1]}, {"axes": [0, -1], "keepdims": 0})]
SHAPES += [shape_case(op, axes_input_since(op), inputs, attrs) for op in OPS for inputs, attrs in (
    ([[2, 3, 4]], {}),
    ([[2, 3, 4]], {"keepdims": 0}),
    ([[2, 3, 4], i64(1)], {}),
    ([[2, 3, 4], i64(0, -1)], {"keepdims": 0}),
    ([[2, 3, 4]], {"noop_with_empty_axes": 1}),
    ([[2, 3, 4], np.zeros(0, np.int64)], {"noop_with_empty_axes": 1}),
    ([[2, 0, 4], i64(1)], {"keepdims": 0}),
    ([[]], {"keepdims": 0}),
)]

REJECTED = [(shape_case(op, opset, [[2, 3]], {"axes": [2]}), f"{op.lower()}_c1") for op in OPS
            for opset in attr_opsets(op)]
REJECTED += [(shape_case(op, axes_input_since(op), [[2, 3], i64(-3)]), f"{op.lower()}_c1") for op in OPS]
REJECTED += [(shape_case(op, opset, [[2, 3]], {"axes": axes}), f"{op.lower()}_c2") for op in REPEATS_REFUSED
             for opset in attr_opsets(op) for axes in ([1, -1], [0, 0])]
REJECTED += [(shape_case(op, axes_input_since(op), [[2, 3], i64(0, -2)]), f"{op.lower()}_c2")
             for op in REPEATS_REFUSED]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("op", OPS)
def test_symbolic_batch_dim(op: str) -> None:
    shape = symbolic_shape(op, axes_input_since(op), [[Sym("N"), 3, 4], [1]], {"keepdims": 0}, {"axes": [-1]})
    assert shape == ["N", "3"]


@pytest.mark.parametrize(("since", "inputs", "attrs"), [
    (13, [np.zeros((2, 0), np.float32)], {"axes": [1]}), (18, [np.zeros((2, 0), np.float32), i64(1)], {}),
    (18, [np.zeros((0, 3), np.float32), None], {}),
])
def test_the_mean_of_an_empty_set_is_nan_or_zero_by_the_reading(since: int, inputs: list[Any], attrs: dict[str, Any]
                                                                ) -> None:
    """NaN for a float T, 0 for an integer T (no NaN there), as `ReduceMean`'s doc says; the readings name the other
    sources' answers and apply exactly where the set is empty."""
    floats = run("ai.onnx", "ReduceMean", since, inputs, **attrs)[0]
    ints = run("ai.onnx", "ReduceMean", since, [inputs[0].astype(np.int32), *inputs[1:]], **attrs)[0]
    assert np.isnan(floats).all() and floats.dtype == np.float32
    assert (ints == 0).all() and ints.dtype == np.int32 and ints.shape == floats.shape
    v = version("ai.onnx", "ReduceMean", since)
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
    got = run_onnxruntime(*one_node_model("ReduceMean", 18, [x, i64(1)], {"keepdims": 1}, 1, constants=(1,)))[0]
    assert (got == 0).all()
    attrs = {"keepdims": 1, "noop_with_empty_axes": 0}
    assert followed_reading(version("ai.onnx", "ReduceMean", 18), [x, i64(1)], attrs,
                            [list(got.shape)]) == "reducemean_r1 (onnxruntime)"
