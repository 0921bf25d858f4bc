"""com.microsoft ReduceSumInteger: onnxruntime has no CPU kernel for it, so the kernel is checked against the ai.onnx
subgraph Cast(ReduceSum(Cast(data, int64)), int32 or uint32) run by onnxruntime (int8 to int32, uint8 to uint32, one
and several axes, negative axes, keepdims 0 and 1); the shape formula against that subgraph's; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.oracles import run_onnxruntime

DOMAIN = "com.microsoft"
OP = "ReduceSumInteger"
RNG = np.random.default_rng(61)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def subgraph(data: np.ndarray, axes: list[int], keepdims: int) -> list[np.ndarray]:
    out = TensorProto.UINT32 if data.dtype == np.uint8 else TensorProto.INT32
    nodes = [helper.make_node("Cast", ["data"], ["wide"], to=TensorProto.INT64),
             helper.make_node("ReduceSum", ["wide", "axes"], ["sum"], keepdims=keepdims),
             helper.make_node("Cast", ["sum"], ["y"], to=out)]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
        "data", helper.np_dtype_to_tensor_dtype(data.dtype), list(data.shape))],
        [helper.make_tensor_value_info("y", out, None)],
        initializer=[helper.make_tensor("axes", TensorProto.INT64, [len(axes)], axes)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return run_onnxruntime(model, {"data": data})


def oracle(data: np.ndarray, axes: list[int], keepdims: int) -> Callable[[], list[np.ndarray]]:
    return lambda: subgraph(data, axes, keepdims)


def case(dtype: type[np.integer[Any]], shape: tuple[int, ...], axes: list[int], keepdims: int, id: str) -> OracleCase:
    data = full(dtype, *shape)
    return OracleCase(OP, {"axes": axes, "keepdims": keepdims}, [data], (1,), oracle=oracle(data, axes, keepdims),
                      id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, (2, 3, 7), [2], 1, "u8_last_axis_keepdims"),
    case(np.int8, (2, 3, 7), [1], 0, "i8_middle_axis"),
    case(np.uint8, (2, 3, 4, 5), [2, 3], 0, "u8_two_axes"),
    case(np.int8, (4, 3, 5), [-1, 0], 1, "i8_negative_axes"),
    case(np.uint8, (300, 40), [0, 1], 1, "u8_all_axes_large_sum"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_shape_formula_matches_the_subgraph(c: OracleCase) -> None:
    (want,) = c.oracle() if callable(c.oracle) else []
    assert formula_shapes(version(DOMAIN, OP, 1), c.inputs, c.attrs)[0] == list(want.shape)


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({"axes": [2], "keepdims": 1}, "reducesuminteger_c1", id="v1-axis"),
    pytest.param({"axes": [], "keepdims": 1}, "reducesuminteger_c1", id="v1-no_axes"),
    pytest.param({"axes": [0, -2], "keepdims": 0}, "reducesuminteger_c2", id="v1-repeated"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [[2, 3]], attrs)
