"""com.microsoft MoE: the kernel against onnxruntime's CPU kernel (every activation it runs, top-k routing with and
without renormalisation, interleaved SwiGLU with alpha, beta and the limit, ties), the shape formula against
onnxruntime, rejected nodes under their constraint ids, and what the CPU kernel cannot run checked by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

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
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "MoE"
f32 = Seeded(11).f32
E, H, NI = 4, 6, 5  # experts, hidden size, inter size


def _inputs(lead: tuple[int, ...], width: int, *, bias: bool = True) -> list[np.ndarray | None]:
    tokens = int(np.prod(lead))
    return [f32(*lead, H), f32(tokens, E), f32(E, width, H), f32(E, width) if bias else None, f32(E, H, NI),
            f32(E, H) if bias else None]


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None]) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=1e-5, id=ident, domain=DOMAIN)


SWIGLU = {"activation_type": "swiglu", "swiglu_fusion": 1, "activation_alpha": 1.702, "activation_beta": 1.0}
CASES = [
    _case("relu-top1", {"activation_type": "relu"}, _inputs((7,), NI)),
    _case("relu-top2-3d", {"activation_type": "relu", "k": 2}, _inputs((2, 3), NI)),
    _case("gelu-top3-norm", {"activation_type": "gelu", "k": 3, "normalize_routing_weights": 1}, _inputs((5,), NI)),
    _case("silu-top2-nobias", {"activation_type": "silu", "k": 2}, _inputs((4,), NI, bias=False)),
    _case("identity-all-norm", {"activation_type": "identity", "k": E, "normalize_routing_weights": 1},
          _inputs((3,), NI)),
    _case("swiglu-interleaved", {**SWIGLU, "k": 2, "normalize_routing_weights": 1}, _inputs((6,), 2 * NI)),
    _case("swiglu-limit", {**SWIGLU, "k": 2, "swiglu_limit": 0.5}, _inputs((6,), 2 * NI)),
    _case("swiglu-plain", {"activation_type": "swiglu", "swiglu_fusion": 1}, _inputs((3,), 2 * NI)),
    # equal router rows: ties go to the higher expert index
    _case("ties", {"activation_type": "identity", "k": 2},
          [f32(3, H), np.zeros((3, E), np.float32), f32(E, NI, H), None, f32(E, H, NI), None]),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def _ffn(x: np.ndarray, w1: np.ndarray, w2: np.ndarray, act: Any) -> np.ndarray:
    out: np.ndarray = act(x @ w1.T) @ w2.T
    return out


def test_what_the_cpu_kernel_cannot_run_follows_the_definition() -> None:
    """FC3 gating (Mixtral: silu(FC1) * FC3), concatenated SwiGLU, GEGLU and relu2, written out for one token and
    its single expert (k = 1, weight the softmax probability)."""
    x, r = f32(1, H), np.array([[0.0, 3.0, 0.0, 0.0]], np.float32)
    p = np.exp(r[0]) / np.exp(r[0]).sum()
    w1, w2, w3, w12 = f32(E, NI, H), f32(E, H, NI), f32(E, NI, H), f32(E, 2 * NI, H)

    def sig(v: np.ndarray) -> np.ndarray:
        out: np.ndarray = 1.0 / (1.0 + np.exp(-v))
        return out

    def gelu(v: np.ndarray) -> np.ndarray:
        out: np.ndarray = 0.5 * v * (1.0 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))
        return out

    x64, e = x.astype(np.float64), 1
    silu_fc3 = p[e] * ((x64 @ w1[e].T) * sig(x64 @ w1[e].T) * (x64 @ w3[e].T)) @ w2[e].T
    got = run(DOMAIN, OP, 1, [x, r, w1, None, w2, None, w3, None], activation_type="silu")[0]
    np.testing.assert_allclose(got, silu_fc3, rtol=1e-5)
    h = x64 @ w12[e].T
    g, u = h[:, :NI], h[:, NI:]
    concat = p[e] * (g * sig(g) * u) @ w2[e].T
    got = run(DOMAIN, OP, 1, [x, r, w12, None, w2, None, None, None], activation_type="swiglu", swiglu_fusion=2)[0]
    np.testing.assert_allclose(got, concat, rtol=1e-5)
    geglu = p[e] * (gelu(h[:, 0::2]) * h[:, 1::2]) @ w2[e].T
    got = run(DOMAIN, OP, 1, [x, r, w12, None, w2, None, None, None], activation_type="geglu", swiglu_fusion=1)[0]
    np.testing.assert_allclose(got, geglu, rtol=1e-5)
    relu2 = p[e] * _ffn(x64, w1[e], w2[e], lambda v: np.maximum(v, 0) ** 2)
    got = run(DOMAIN, OP, 1, [x, r, w1, None, w2, None, None, None], activation_type="relu2")[0]
    np.testing.assert_allclose(got, relu2, rtol=1e-5)
    g, u = np.minimum(h[:, 0::2], 0.5), np.clip(h[:, 1::2], -0.5, 0.5)
    after = np.minimum(h[:, 0::2] * sig(h[:, 0::2]), 0.5) * u
    got = run(DOMAIN, OP, 1, [x, r, w12, None, w2, None, None, None], activation_type="swiglu", swiglu_fusion=1,
              swiglu_limit=0.5, swiglu_limit_after_activation=1)[0]
    np.testing.assert_allclose(got, p[e] * after @ w2[e].T, rtol=1e-5)
    assert not np.allclose(after, g * sig(g) * u)  # clamping after the activation is a different function


def test_float16_is_computed_in_float32_and_rounded_once() -> None:
    ins = _inputs((4,), NI)
    want = run(DOMAIN, OP, 1, [*ins, None, None], activation_type="relu", k=2)[0]
    half = [None if a is None else a.astype(np.float16) for a in ins]
    got = run(DOMAIN, OP, 1, [*half, None, None], activation_type="relu", k=2)[0]
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([f32(2, 3, 4, H), f32(24, E), f32(E, NI, H), None, f32(E, H, NI), None, None, None], {},
                 "2-D or 3-D", id="rank"),
    pytest.param([f32(3, H), f32(4, E), f32(E, NI, H), None, f32(E, H, NI), None, None, None], {}, "router_probs",
                 id="router_rows"),
    pytest.param([f32(3, H), f32(3, E), f32(E, NI, H), None, f32(E, H, NI), None, None, None], {"k": 5}, "k=5",
                 id="k"),
    pytest.param([f32(3, H), f32(3, E), f32(E, NI, H), None, f32(E, H, NI), None, None, None],
                 {"activation_type": "swiglu"}, "swiglu", id="swiglu_unfused"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None], attrs: dict[str, Any], message: str) -> None:
    attrs = {"activation_type": "relu", **attrs}
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param(_inputs((5,), NI), {"activation_type": "relu"}, id="2d"),
    pytest.param(_inputs((2, 3), 2 * NI), {**SWIGLU, "k": 2}, id="3d-swiglu"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3, 4, H], [24, E], [E, NI, H], None, [E, H, NI]], {}, "moe_c1", id="rank"),
    pytest.param([[3, 7], [3, E], [E, NI, H], None, [E, H, NI]], {}, "moe_c2", id="hidden"),
    pytest.param([[3, H], [4, E], [E, NI, H], None, [E, H, NI]], {}, "moe_c3", id="router_rows"),
    pytest.param([[3, H], [3, E], [E, NI, H], None, [E, H, NI]], {"k": 5}, "moe_c4", id="k"),
    pytest.param([[3, H], [3, E], [E, NI, H], None, [E, H, NI]], {"activation_type": "swiglu", "swiglu_fusion": 1},
                 "moe_c5", id="fused_width"),
    pytest.param([[3, H], [3, E], [E, NI, H], None, [E, H, NI], None, [E, NI, H]], {"activation_type": "geglu"},
                 "moe_c6", id="geglu_fc3"),
    pytest.param([[3, H], [3, E], [E, NI, H], None, [E, H, NI]], {"use_sparse_mixer": 1}, "moe_c7", id="sparse_k"),
    pytest.param([[3, H], [3, E], [E, NI, H], None, [E, H, 9]], {}, "moe_c5", id="inter"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
