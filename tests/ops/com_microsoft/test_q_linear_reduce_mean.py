"""com.microsoft QLinearReduceMean: onnxruntime has no CPU kernel for it (it serves NNAPI), so the kernel is checked
against the three ai.onnx ops it fuses run by onnxruntime, DequantizeLinear -> ReduceMean -> QuantizeLinear (int8
and uint8, one and several axes, negative axes, keepdims 0 and 1); the shape formula against that subgraph's;
rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.oracles import run_onnxruntime

DOMAIN = "com.microsoft"
OP = "QLinearReduceMean"
RNG = np.random.default_rng(53)


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def subgraph(inputs: list[np.ndarray], axes: list[int], keepdims: int) -> list[np.ndarray]:
    """DequantizeLinear -> ReduceMean (opset 13, axes as an attribute) -> QuantizeLinear, run by onnxruntime."""
    data = inputs[0]
    elem = helper.np_dtype_to_tensor_dtype(data.dtype)
    names = ["data", "data_scale", "data_zero_point", "reduced_scale", "reduced_zero_point"]
    nodes = [helper.make_node("DequantizeLinear", names[:3], ["x"]),
             helper.make_node("ReduceMean", ["x"], ["m"], axes=axes, keepdims=keepdims),
             helper.make_node("QuantizeLinear", ["m", names[3], names[4]], ["y"])]
    types = [elem, TensorProto.FLOAT, elem, TensorProto.FLOAT, elem]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, t, list(v.shape))
                                           for n, t, v in zip(names, types, inputs, strict=True)],
                              [helper.make_tensor_value_info("y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return run_onnxruntime(model, dict(zip(names, inputs, strict=True)))


def oracle(inputs: list[np.ndarray], axes: list[int], keepdims: int) -> Callable[[], list[np.ndarray]]:
    return lambda: subgraph(inputs, axes, keepdims)


def case(dtype: type[np.integer[Any]], shape: tuple[int, ...], axes: list[int], keepdims: int, id: str,
         q: tuple[float, int, float, int] = (0.0731, 3, 0.0213, -5)) -> OracleCase:
    shift = 128 if dtype == np.uint8 else 0
    inputs = [full(dtype, *shape), f(q[0]), np.array(q[1] + shift, dtype), f(q[2]), np.array(q[3] + shift, dtype)]
    return OracleCase(OP, {"axes": axes, "keepdims": keepdims}, inputs, (1,), oracle=oracle(inputs, axes, keepdims),
                      id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, (2, 3, 7), [2], 1, "u8_last_axis_keepdims"),
    case(np.int8, (2, 3, 7), [1], 0, "i8_middle_axis"),
    case(np.uint8, (2, 3, 4, 5), [2, 3], 1, "u8_spatial_axes", (0.05, 0, 0.0137, 0)),
    case(np.int8, (4, 3, 5), [-1, 0], 0, "i8_negative_axes"),
    case(np.int8, (3, 4), [0, 1], 1, "i8_all_axes", (0.3, -100, 0.01, 20)),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_shape_formula_matches_the_subgraph(c: OracleCase) -> None:
    (want,) = c.oracle() if callable(c.oracle) else []
    assert formula_shapes(version(DOMAIN, OP, 1), c.inputs, c.attrs)[0] == list(want.shape)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3], [], [], [], []], {"axes": [2], "keepdims": 1}, "qlinearreducemean_c1", id="v1-axis"),
    pytest.param([[2, 3], [], [], [], []], {"axes": [1, -1], "keepdims": 1}, "qlinearreducemean_c2",
                 id="v1-repeated"),
    pytest.param([[2, 3], [1], [], [], []], {"axes": [1], "keepdims": 1}, "qlinearreducemean_c3", id="v1-scale"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
