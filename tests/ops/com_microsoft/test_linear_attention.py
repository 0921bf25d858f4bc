"""com.microsoft LinearAttention: the kernel against onnxruntime's CPU kernel (the four update rules, GQA and inverse
GQA, per-head and per-key-dimension decay, shared beta, scale), the state window (CUDA only) against runs over
prefixes of the tokens, the shape formulas against onnxruntime, and rejected nodes under their constraint ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "LinearAttention"
rng = np.random.default_rng(5)
B, T, DK, DV = 2, 4, 3, 2


def _arr(*shape: int, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    return rng.uniform(low, high, size=shape).astype(np.float32)


def _inputs(hq: int, hkv: int, rule: str, *, per_key: bool = False, shared_beta: bool = False,
            past: bool = True) -> list[np.ndarray | None]:
    key = _arr(B, T, hkv, DK)
    key = (key / np.linalg.norm(key, axis=-1, keepdims=True)).reshape(B, T, hkv * DK)
    decay = _arr(B, T, hkv * DK if per_key else hkv, low=-1.0, high=0.0) if "gated" in rule else None
    beta = _arr(B, T, 1 if shared_beta else hkv, low=0.0, high=1.0) if "delta" in rule else None
    return [_arr(B, T, hq * DK), key, _arr(B, T, hkv * DV), _arr(B, hkv, DK, DV) if past else None, decay, beta]


def _case(ident: str, hq: int, hkv: int, rule: str, **kw: Any) -> OracleCase:
    scale = kw.pop("scale", 0.0)
    return OracleCase(OP, {"q_num_heads": hq, "kv_num_heads": hkv, "update_rule": rule, "scale": scale},
                      _inputs(hq, hkv, rule, **kw), (1,), n_out=2, oracle="ort", rtol=1e-5, id=ident, domain=DOMAIN)


CASES = [
    _case("linear", 2, 2, "linear"),
    _case("linear-nopast-scale", 2, 2, "linear", past=False, scale=0.5),
    _case("gated-head", 4, 2, "gated"),
    _case("gated-key", 2, 2, "gated", per_key=True),
    _case("delta", 2, 1, "delta"),
    _case("delta-sharedbeta", 2, 2, "delta", shared_beta=True),
    _case("gated_delta", 4, 2, "gated_delta"),
    _case("gated_delta-key", 2, 2, "gated_delta", per_key=True),
    _case("inverse-gqa", 1, 3, "gated_delta"),
    _case("inverse-gqa-linear", 2, 4, "linear", past=False),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize("window", [1, 3, 6])
def test_state_window_holds_the_state_after_each_trailing_token(window: int) -> None:
    attrs = {"q_num_heads": 2, "kv_num_heads": 2, "update_rule": "gated_delta", "scale": 0.0}
    q, k, v, past, decay, beta = _inputs(2, 2, "gated_delta")
    assert q is not None and k is not None and v is not None and decay is not None and beta is not None
    assert past is not None and decay is not None and beta is not None
    padded_past = np.concatenate([np.full((window - 1, *past.shape), 9.0, np.float32), past[None]])
    out, states = run(DOMAIN, OP, 1, [q, k, v, padded_past, decay, beta], state_window=window, **attrs)
    whole, last = run(DOMAIN, OP, 1, [q, k, v, past, decay, beta], state_window=0, **attrs)
    np.testing.assert_array_equal(out, whole)  # only slot W - 1 of past_state is read
    assert states.shape == (window, B, 2, DK, DV)
    for j in range(window):
        t = T - window + j  # slot j: the state after token t
        if t < 0:
            assert not states[j].any()
            continue
        _, prefix = run(DOMAIN, OP, 1, [q[:, :t + 1], k[:, :t + 1], v[:, :t + 1], past, decay[:, :t + 1],
                                        beta[:, :t + 1]], state_window=0, **attrs)
        np.testing.assert_allclose(states[j], prefix, rtol=1e-6)
    np.testing.assert_array_equal(states[-1], last)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param(_inputs(4, 2, "gated"), {"q_num_heads": 4, "kv_num_heads": 2, "update_rule": "gated"}, id="gqa"),
    pytest.param(_inputs(1, 3, "delta"), {"q_num_heads": 1, "kv_num_heads": 3, "update_rule": "delta"},
                 id="inverse"),
])
def test_shape_formulas_match_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs, n_out=2)


def test_state_window_shape_formula() -> None:
    shapes = [[B, T, 2 * DK], [B, T, 2 * DK], [B, T, 2 * DV], [3, B, 2, DK, DV]]
    got = formula_shapes(version(DOMAIN, OP, 1), shapes, {"q_num_heads": 2, "kv_num_heads": 2,
                                                          "update_rule": "linear", "state_window": 3})
    assert got[:2] == [[B, T, 2 * DV], [3, B, 2, DK, DV]]


HEADS = {"q_num_heads": 2, "kv_num_heads": 2}


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[B, T, 7], [B, T, 6], [B, T, 4]], {**HEADS, "update_rule": "linear"}, "linearattention_c1",
                 id="width"),
    pytest.param([[B, T, 8], [B, T, 6], [B, T, 4]], {**HEADS, "update_rule": "linear"}, "linearattention_c2",
                 id="head_size"),
    pytest.param([[B, T, 6], [B, T, 9], [B, T, 6]], {"q_num_heads": 2, "kv_num_heads": 3, "update_rule": "linear"},
                 "linearattention_c3", id="groups"),
    pytest.param([[B, T, 6], [B, T, 6], [B, T, 4]], {**HEADS, "update_rule": "gated"}, "linearattention_c4",
                 id="no_decay"),
    pytest.param([[B, T, 6], [B, T, 6], [B, T, 4]], {**HEADS, "update_rule": "delta"}, "linearattention_c5",
                 id="no_beta"),
    pytest.param([[B, T, 6], [B, T, 6], [B, T, 4], None, [B, T, 5]], {**HEADS, "update_rule": "gated"},
                 "linearattention_c6", id="decay"),
    pytest.param([[B, T, 6], [B, T, 6], [B, T, 4], None, None, [B, T, 3]], {**HEADS, "update_rule": "delta"},
                 "linearattention_c7", id="beta"),
    pytest.param([[B, T, 6], [B, T, 6], [B, T, 4], [B, 2, 3, 2]], {**HEADS, "update_rule": "linear",
                                                                    "state_window": 2},
                 "linearattention_c8", id="window_state"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


def test_kernel_rejects_a_missing_gate() -> None:
    q, k, v, *_ = _inputs(2, 2, "linear")
    with pytest.raises(ValueError, match="needs the decay"):
        run(DOMAIN, OP, 1, [q, k, v, None, None, None], q_num_heads=2, kv_num_heads=2, update_rule="gated",
            scale=0.0, state_window=0)
