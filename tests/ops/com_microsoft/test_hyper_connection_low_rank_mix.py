"""com.microsoft HyperConnectionLowRankMix: onnxruntime computes it on CUDA only, so the float kernel is checked
against the graph it equals (RMS norm per branch, the low-rank ScaledSiLU gate network, the injection gate, the
prologue's post-mix, spelled with ai.onnx ops) run by onnxruntime's CPU provider; float16 is checked to round every
step of the contract."""

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
    problem_checks,
    run,
    version,
)
from tests.helpers.oracles import run_onnxruntime

DOMAIN = "com.microsoft"
OP = "HyperConnectionLowRankMix"
f32 = Seeded(83).f32
N, C, H, R = 5, 3, 4, 2
DEFAULTS = {"epsilon": 1e-5, "gate_div": 1.0, "gate_mul": 1.0, "reduction_scale": 1.0, "silu_alpha": 1.0}


def _graph(attrs: dict[str, Any], prologue: bool) -> onnx.ModelProto:
    a = {**DEFAULTS, **attrs}

    def const(name: str, values: list[float] | list[int], dtype: int = TensorProto.FLOAT) -> onnx.NodeProto:
        return helper.make_node("Constant", [], [name], value=helper.make_tensor(name, dtype, [len(values)], values))

    def node(kind: str, ins: list[str], out: str, **kw: Any) -> onnx.NodeProto:
        return helper.make_node(kind, ins, [out], **kw)

    i64 = TensorProto.INT64
    nodes = [const("grouped", [N, C, H], i64), const("flat_shape", [N, C * H], i64), const("last", [-1], i64),
             const("branches", [1], i64), const("ns_shape", [C, H], i64), const("eps", [a["epsilon"]]),
             const("alpha", [a["silu_alpha"]]), const("rs", [a["reduction_scale"]]), const("gd", [a["gate_div"]]),
             const("gm", [a["gate_mul"]]), node("Reshape", ["streams", "grouped"], "s0")]
    if prologue:
        nodes += [node("Unsqueeze", ["prev_post_gate", "last"], "pg"),
                  node("Unsqueeze", ["prev_block_output", "branches"], "pb"), node("Mul", ["pg", "pb"], "inj"),
                  node("Add", ["s0", "inj"], "s")]
    else:
        nodes += [node("Identity", ["s0"], "s")]
    nodes += [node("Mul", ["s", "s"], "sq"), node("ReduceMean", ["sq", "last"], "ms", keepdims=1),
              node("Add", ["ms", "eps"], "mse"), node("Sqrt", ["mse"], "rms"), node("Div", ["s", "rms"], "sn"),
              node("Reshape", ["norm_scale", "ns_shape"], "ns"), node("Mul", ["sn", "ns"], "hn"),
              node("Reshape", ["hn", "flat_shape"], "flat"), node("MatMul", ["flat", "down_weight"], "down"),
              node("Mul", ["down", "alpha"], "z"), node("Sigmoid", ["z"], "sz"), node("Mul", ["z", "sz"], "hidden"),
              node("MatMul", ["hidden", "up_weight"], "up"), node("Sigmoid", ["up"], "g"),
              node("Reshape", ["g", "grouped"], "g3"), node("Mul", ["hn", "g3"], "hg"),
              node("ReduceSum", ["hg", "branches"], "red", keepdims=0), node("Mul", ["red", "rs"], "pre_output"),
              node("MatMul", ["flat", "inject_weight"], "inject"), node("Div", ["inject", "gd"], "id"),
              node("Sigmoid", ["id"], "sid"), node("Mul", ["sid", "gm"], "post_gate"),
              node("Reshape", ["s", "flat_shape"], "streams_out")]
    names = ["streams", "norm_scale", "down_weight", "up_weight", "inject_weight"] + \
        (["prev_block_output", "prev_post_gate"] if prologue else [])
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in names],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                               for n in ("pre_output", "post_gate", "streams_out")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _inputs(prologue: bool) -> list[np.ndarray | None]:
    return [f32(N, C * H), f32(C * H), f32(C * H, R), f32(R, C * H), f32(C * H, C),
            f32(N, H) if prologue else None, f32(N, C) if prologue else None]


def _case(ident: str, attrs: dict[str, Any], prologue: bool) -> OracleCase:
    ins = _inputs(prologue)
    names = ["streams", "norm_scale", "down_weight", "up_weight", "inject_weight", "prev_block_output",
             "prev_post_gate"]
    feeds = {n: a for n, a in zip(names, ins, strict=True) if a is not None}
    return OracleCase(OP, {"num_branches": C, **attrs}, ins, (1,), n_out=3, rtol=1e-5, id=ident, domain=DOMAIN,
                      oracle=lambda: run_onnxruntime(_graph(attrs, prologue), feeds))


CASES = [
    _case("plain", {}, False),
    _case("prologue", {}, True),
    _case("scaled", {"silu_alpha": 0.5, "reduction_scale": 0.25, "gate_div": 2.0, "gate_mul": 3.0, "epsilon": 0.1},
          True),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_the_graph_run_by_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_float16_rounds_each_step() -> None:
    """The float16 results differ from the float ones rounded once: the contract rounds every step."""
    ins = _inputs(True)
    half = [None if a is None else a.astype(np.float16) for a in ins]
    widened = [None if a is None else a.astype(np.float32) for a in half]
    got = run(DOMAIN, OP, 1, half, **DEFAULTS, num_branches=C)
    once = run(DOMAIN, OP, 1, widened, **DEFAULTS, num_branches=C)
    for g, o in zip(got, once, strict=True):
        assert g.dtype == np.float16
        np.testing.assert_allclose(g.astype(np.float32), o, rtol=2e-2, atol=2e-2)
    assert any(not np.array_equal(g, o.astype(np.float16)) for g, o in zip(got, once, strict=True))


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[N, 10], [10], [10, R], [R, 10], [10, C]], {}, "hyperconnectionlowrankmix_c1", id="branches"),
    pytest.param([[N, C * H], [C * H], [C * H, R], [R, C * H], [C * H, C + 1]], {}, "hyperconnectionlowrankmix_c2",
                 id="inject"),
    pytest.param([[N, C * H], [C * H], [C * H, R], [R, C * H], [C * H, C]], {"gate_div": 0.0},
                 "hyperconnectionlowrankmix_c3", id="gate_div"),
    pytest.param([[N, C * H], [C * H], [C * H, R], [R, C * H], [C * H, C], [N, H]], {},
                 "hyperconnectionlowrankmix_c4", id="prologue_pair"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {"num_branches": C, **attrs})
