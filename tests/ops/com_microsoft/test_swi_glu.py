"""com.microsoft SwiGLU: onnxruntime runs it on CUDA only, so the kernel is checked against the ai.onnx subgraph
Min / Clip -> Mul -> Sigmoid -> Mul -> Add -> Mul run by onnxruntime's CPU provider (with up given, and with gate
holding both halves, split by a Split node), over limits that clamp and that disable the clamps, activation_alpha and
activation_beta; float16 with round_activation against a subgraph in float16; the tail where activation_alpha * G is
below -87 by hand; the shape formula; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "SwiGLU"
f32 = Seeded(36).f32


def _constant(name: str, value: float, dtype: Any) -> onnx.NodeProto:
    return node("Constant", [], [name], value=onnx.numpy_helper.from_array(np.array(value, dtype=dtype), name))


def subgraph(attrs: dict[str, Any], gate: np.ndarray, up: np.ndarray | None) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        dtype = gate.dtype
        limit = attrs.get("limit", 0.0)
        nodes = [_constant("alpha", attrs.get("activation_alpha", 1.0), dtype),
                 _constant("beta", attrs.get("activation_beta", 0.0), dtype)]
        feeds = {"gate": gate}
        if up is None:
            nodes.append(node("Split", ["gate"], ["g0", "u0"], axis=-1, num_outputs=2))
        else:
            feeds["up"] = up
            nodes += [node("Identity", ["gate"], ["g0"]), node("Identity", ["up"], ["u0"])]
        if limit > 0:
            nodes += [_constant("hi", limit, dtype), _constant("lo", -limit, dtype), node("Min", ["g0", "hi"], ["g"]),
                      node("Clip", ["u0", "lo", "hi"], ["u"])]
        else:
            nodes += [node("Identity", ["g0"], ["g"]), node("Identity", ["u0"], ["u"])]
        nodes += [node("Mul", ["g", "alpha"], ["ag"]), node("Sigmoid", ["ag"], ["s"]), node("Mul", ["g", "s"], ["act"]),
                  node("Add", ["u", "beta"], ["ub"]), node("Mul", ["act", "ub"], ["y"])]
        return run_ort_graph(nodes, feeds, ["y"])

    return run_it


def _case(attrs: dict[str, Any], gate: np.ndarray, up: np.ndarray | None, ident: str,
          rtol: float = 1e-5) -> OracleCase:
    inputs: list[Any] = [gate] if up is None else [gate, up]
    return OracleCase(OP, attrs, inputs, (1,), oracle=subgraph(attrs, gate, up), rtol=rtol, id=ident, domain=DOMAIN)


G, U = f32(2, 3, 8) * 4, f32(2, 3, 8) * 4
CASES = [
    _case({}, G, U, "defaults"),
    _case({"activation_alpha": 1.702, "activation_beta": 1.0, "limit": 2.5}, G, U, "gpt-oss-like"),
    _case({"limit": 0.75}, G, U, "tight-limit"),
    _case({"limit": -1.0, "activation_alpha": -1.25}, G, U, "negative-limit-no-clamp"),
    _case({"activation_beta": -0.5, "limit": 2.0}, G, None, "packed-halves"),
    _case({"activation_alpha": 0.5}, f32(5, 6) * 3, None, "packed-rank2"),
    _case({"round_activation": 1, "activation_alpha": 1.702, "activation_beta": 1.0},
          G.astype(np.float16), U.astype(np.float16), "fp16-round-activation", rtol=2e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_round_activation_rounds_the_gate_product_to_t() -> None:
    gate, up = G.astype(np.float16), U.astype(np.float16)
    (once,) = run(DOMAIN, OP, 1, [gate, up], activation_alpha=1.702)
    (twice,) = run(DOMAIN, OP, 1, [gate, up], activation_alpha=1.702, round_activation=1)
    g = gate.astype(np.float64)
    act = (g / (1 + np.exp(-1.702 * g))).astype(np.float16).astype(np.float64)
    np.testing.assert_array_equal(twice, (act * up.astype(np.float64)).astype(np.float16))
    assert np.any(once != twice)


def test_a_far_negative_gate_keeps_its_tail() -> None:
    """alpha * G = -100 < -87: exp(100) overflows float, so onnxruntime widens to double; the result,
    -100 * sigmoid(-100) = -3.72e-42, is a float32 subnormal, not zero."""
    (y,) = run(DOMAIN, OP, 1, [np.array([-100.0], np.float32), np.array([1.0], np.float32)])
    assert y[0] != 0
    np.testing.assert_allclose(y[0], -100.0 / (1.0 + np.exp(100.0)), rtol=1e-2)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_the_subgraph(case: OracleCase) -> None:
    assert callable(case.oracle)
    assert formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)[0] == list(case.oracle()[0].shape)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[]], "swiglu_c1", id="scalar"),
    pytest.param([[2, 3], [2, 4]], "swiglu_c2", id="up-shape"),
    pytest.param([[2, 7]], "swiglu_c3", id="odd-packed"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
