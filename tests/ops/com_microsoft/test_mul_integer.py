"""com.microsoft MulInteger: onnxruntime has no CPU kernel for it, so the kernel is checked against the ai.onnx
subgraph Mul(Cast(A) - Cast(A_zero_point), Cast(B) - Cast(B_zero_point)) in int32 run by onnxruntime (int8 and
uint8, broadcasts, absent zero points, the extreme products); the shape formula against that subgraph's; rejected
nodes and inputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.oracles import run_onnxruntime

DOMAIN = "com.microsoft"
OP = "MulInteger"
RNG = np.random.default_rng(59)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def subgraph(a: np.ndarray, za: np.ndarray, b: np.ndarray, zb: np.ndarray) -> list[np.ndarray]:
    elem = helper.np_dtype_to_tensor_dtype(a.dtype)
    names = ["a", "za", "b", "zb"]
    nodes = [helper.make_node("Cast", [n], [f"{n}32"], to=TensorProto.INT32) for n in names]
    nodes += [helper.make_node("Sub", ["a32", "za32"], ["da"]), helper.make_node("Sub", ["b32", "zb32"], ["db"]),
              helper.make_node("Mul", ["da", "db"], ["c"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, elem, list(v.shape))
                                           for n, v in zip(names, (a, za, b, zb), strict=True)],
                              [helper.make_tensor_value_info("c", TensorProto.INT32, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return run_onnxruntime(model, dict(zip(names, (a, za, b, zb), strict=True)))


def oracle(a: np.ndarray, za: np.ndarray, b: np.ndarray, zb: np.ndarray) -> Callable[[], list[np.ndarray]]:
    return lambda: subgraph(a, za, b, zb)


def case(dtype: type[np.integer[Any]], a_shape: tuple[int, ...], b_shape: tuple[int, ...], zps: tuple[int, int],
         id: str, *, absent: bool = False) -> OracleCase:
    a, b = full(dtype, *a_shape), full(dtype, *b_shape)
    za, zb = np.array(zps[0], dtype), np.array(zps[1], dtype)
    given = [a, None, b, None] if absent else [a, za, b, zb]
    return OracleCase(OP, {}, given, (1,), oracle=oracle(a, za, b, zb), id=id, domain=DOMAIN)


EXTREMES = np.array([0, 255, 0, 255], np.uint8)
CASES = [
    case(np.uint8, (3, 40), (3, 40), (128, 3), "u8_same_shape"),
    case(np.int8, (3, 40), (40,), (-5, 100), "i8_broadcast_row"),
    case(np.uint8, (4, 1), (1, 6), (0, 255), "u8_outer"),
    case(np.int8, (), (7,), (0, 0), "i8_absent_zero_points", absent=True),
    OracleCase(OP, {}, [EXTREMES, np.array(255, np.uint8), EXTREMES[::-1].copy(), np.array(0, np.uint8)], (1,),
               oracle=oracle(EXTREMES, np.array(255, np.uint8), EXTREMES[::-1].copy(), np.array(0, np.uint8)),
               id="u8_extreme_products", domain=DOMAIN),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_shape_formula_matches_the_subgraph(c: OracleCase) -> None:
    (want,) = c.oracle() if callable(c.oracle) else []
    assert formula_shapes(version(DOMAIN, OP, 1), c.inputs, {})[0] == list(want.shape)


def test_kernel_rejects_mixed_types() -> None:
    with pytest.raises(ValueError, match="one type"):
        run(DOMAIN, OP, 1, [np.zeros(3, np.uint8), None, np.zeros(3, np.int8), None])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [], [4], []], "mulinteger_c1", id="v1-broadcast"),
    pytest.param([[2, 3], [1], [3], []], "mulinteger_c2", id="v1-a_zero_point"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
