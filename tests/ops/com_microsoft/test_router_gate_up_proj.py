"""com.microsoft RouterGateUpProj: onnxruntime computes it on CUDA only, so the kernel is checked against the
graph it equals (MatMul, Split, and SwiGLU spelled with ai.onnx ops) run by onnxruntime's CPU provider: with and
without the limit, alpha and beta, 2-D and 3-D activations; also the shape formulas and a value by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    oracle_params,
    run,
)
from tests.helpers.oracles import run_onnxruntime

DOMAIN = "com.microsoft"
OP = "RouterGateUpProj"
f32 = Seeded(79).f32
K, R, INTER = 8, 4, 5


def _subgraph(attrs: dict[str, Any]) -> onnx.ModelProto:
    """Y = X W split into router, gate and up; G * sigmoid(alpha G) * (L + beta) with the clamps."""
    limit, alpha, beta = attrs.get("limit", 0.0), attrs.get("activation_alpha", 1.0), attrs.get("activation_beta", 0.0)

    def const(name: str, values: list[float] | list[int], dtype: int) -> onnx.NodeProto:
        return helper.make_node("Constant", [], [name], value=helper.make_tensor(name, dtype, [len(values)], values))

    nodes = [const("alpha", [alpha], TensorProto.FLOAT), const("beta", [beta], TensorProto.FLOAT),
             const("sizes", [R, INTER, INTER], TensorProto.INT64), helper.make_node("MatMul", ["X", "W"], ["Y"]),
             helper.make_node("Split", ["Y", "sizes"], ["router", "gate0", "up0"], axis=-1)]
    if limit > 0:
        nodes += [const("hi", [limit], TensorProto.FLOAT), const("lo", [-limit], TensorProto.FLOAT),
                  helper.make_node("Min", ["gate0", "hi"], ["gate"]),
                  helper.make_node("Clip", ["up0", "lo", "hi"], ["up"])]
    else:
        nodes += [helper.make_node("Identity", ["gate0"], ["gate"]), helper.make_node("Identity", ["up0"], ["up"])]
    nodes += [helper.make_node("Mul", ["gate", "alpha"], ["ag"]), helper.make_node("Sigmoid", ["ag"], ["sg"]),
              helper.make_node("Mul", ["gate", "sg"], ["glu"]), helper.make_node("Add", ["up", "beta"], ["upb"]),
              helper.make_node("Mul", ["glu", "upb"], ["activated"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in "XW"],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                               for n in ("router", "activated")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _case(ident: str, attrs: dict[str, Any], x: np.ndarray) -> OracleCase:
    w = f32(K, R + 2 * INTER)
    full = {"router_size": R, **attrs}
    return OracleCase(OP, full, [x, w], (1,), n_out=2, rtol=1e-5, id=ident, domain=DOMAIN,
                      oracle=lambda: run_onnxruntime(_subgraph(full), {"X": x, "W": w}))


CASES = [
    _case("plain", {}, f32(6, K)),
    _case("alpha-beta-3d", {"activation_alpha": 1.702, "activation_beta": 1.0}, f32(2, 3, K)),
    _case("limit", {"limit": 0.5, "activation_alpha": 1.702, "activation_beta": 1.0},
          (f32(5, K) * 3).astype(np.float32)),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_the_graph_run_by_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_value_by_hand() -> None:
    """X = [1], W = [[2, 3, -1]]: router 2, gate 3, up -1, activated 3 * sigmoid(3) * (-1)."""
    got = run(DOMAIN, OP, 1, [np.ones((1, 1), np.float32), np.array([[2.0, 3.0, -1.0]], np.float32)],
              activation="swiglu", activation_alpha=1.0, activation_beta=0.0, limit=0.0, router_size=1)
    np.testing.assert_allclose(got[0], [[2.0]])
    np.testing.assert_allclose(got[1], [[-3.0 / (1.0 + np.exp(-3.0))]], rtol=1e-6)


def test_float16_rounds_the_projection_first() -> None:
    x, w = f32(4, K).astype(np.float16), f32(K, R + 2 * INTER).astype(np.float16)
    router, act = run(DOMAIN, OP, 1, [x, w], activation="swiglu", activation_alpha=1.0, activation_beta=0.0,
                      limit=0.0, router_size=R)
    y = (x.astype(np.float64) @ w.astype(np.float64)).astype(np.float16).astype(np.float64)
    g, u = y[:, R:R + INTER], y[:, R + INTER:]
    assert router.dtype == np.float16
    np.testing.assert_array_equal(router, y[:, :R].astype(np.float16))
    np.testing.assert_array_equal(act, (g / (1 + np.exp(-g)) * u).astype(np.float16))
