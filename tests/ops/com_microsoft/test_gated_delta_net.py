"""com.microsoft GatedDeltaNet: the kernel against onnxruntime's CPU kernel (every update rule, inverse GQA, ragged
and uniform requests, packed QKV, the rank-4 spelling, per-key decay, the fused gate and beta activations, L2
normalisation, float16, the captured transitions), the shape formulas against onnxruntime, rejected nodes under
their constraint ids, and one transition by hand."""

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
from tests.helpers.oracles import oracle_outputs
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "GatedDeltaNet"
f32 = Seeded(71).f32
rng = np.random.default_rng(71)
T, HQ, HV, DK, DV, B = 6, 2, 4, 3, 2, 2
CU = np.array([0, 2, 6], np.int32)
RESOLVED = {"beta_activation": "none", "gate_activation": "none", "gate_lower_bound": -5.0, "qk_l2_norm": 0,
            "scale": 0.0, "state_update_capacity": 0, "update_rule": "gated_delta"}


def _unit(*shape: int) -> np.ndarray:
    a = f32(*shape)
    unit: np.ndarray = (a / np.linalg.norm(a, axis=-1, keepdims=True)).astype(np.float32)
    return unit


Q, K, V = f32(T, HQ, DK), _unit(T, HQ, DK), f32(T, HV, DV)
DECAY, BETA, STATE = -rng.random((T, HV)).astype(np.float32), rng.random((T, HV)).astype(np.float32), f32(B, HV, DV, DK)
PACKED = np.concatenate([Q.reshape(T, -1), K.reshape(T, -1), V.reshape(T, -1)], axis=1)


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None], rtol: float = 1e-4) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), n_out=2, oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case("gated-delta-ragged", {}, [Q, K, V, CU, DECAY, BETA, STATE]),
    _case("linear", {"update_rule": "linear"}, [Q, K, V, CU, None, None, STATE]),
    _case("gated-scaled", {"update_rule": "gated", "scale": 0.5}, [Q, K, V, CU, DECAY, None, STATE]),
    _case("delta", {"update_rule": "delta"}, [Q, K, V, CU, None, BETA, STATE]),
    _case("uniform", {}, [Q, K, V, None, DECAY, BETA, STATE]),
    _case("no-initial-state", {}, [Q, K, V, CU, DECAY, BETA, None]),
    _case("l2-norm-sigmoid-beta", {"qk_l2_norm": 1, "beta_activation": "sigmoid"},
          [Q, f32(T, HQ, DK), V, CU, DECAY, f32(T, HV), STATE]),
    _case("softplus-gate", {"gate_activation": "softplus"}, [Q, K, V, CU, f32(T, HV), BETA, STATE, f32(HV), f32(HV)]),
    _case("kda-per-key", {"gate_activation": "kda", "gate_lower_bound": -3.0},
          [Q, K, V, CU, f32(T, HV, DK), BETA, STATE, f32(HV), f32(HV, DK)]),
    _case("per-key-decay", {}, [Q, K, V, CU, -rng.random((T, HV, DK)).astype(np.float32), BETA, STATE]),
    _case("packed-qkv", {}, [PACKED, None, None, CU, DECAY, BETA, STATE]),
    _case("rank4", {}, [Q.reshape(2, 3, HQ, DK), K.reshape(2, 3, HQ, DK), V.reshape(2, 3, HV, DV), None,
                        DECAY.reshape(2, 3, HV), BETA.reshape(2, 3, HV), None]),
    _case("float16", {}, [Q.astype(np.float16), K.astype(np.float16), V.astype(np.float16), CU, DECAY, BETA, STATE],
          rtol=1e-2),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize("per_key", [False, True])
def test_captured_transitions_match_onnxruntime(per_key: bool) -> None:
    """Only the captured prefix of each row is defined (onnxruntime leaves the rest unspecified)."""
    decay = -rng.random((T, HV, DK) if per_key else (T, HV)).astype(np.float32)
    capacity, capture = 3, np.array([1, 5], np.int32)
    case = OracleCase(OP, {"state_update_capacity": capacity}, [Q, K, V, CU, decay, BETA, STATE, None, None, capture],
                      (1,), n_out=3, oracle="ort", domain=DOMAIN)
    want = oracle_outputs(case, 1)[2]
    got = run(DOMAIN, OP, 1, case.inputs, **{**RESOLVED, "state_update_capacity": capacity})[2]
    widths = [HV * (DK if per_key else 1), HQ * DK, HV * DV]
    for b, lengths in enumerate(np.diff(CU)):
        captured = min(int(capture[b]), capacity, int(lengths))
        start = 0
        for width in widths:
            np.testing.assert_allclose(got[b, start:start + captured * width], want[b, start:start + captured * width],
                                       rtol=1e-4, atol=1e-6)
            start += capacity * width


def test_one_transition_by_hand() -> None:
    """One token, one head, d = 1: S' = e S + k beta (v - e S k), o = S' q / sqrt(1)."""
    s0, q, k, v, g, beta = 2.0, 3.0, 1.0, 5.0, np.log(0.5), 0.25
    ins = [np.array([[[q]]], np.float32), np.array([[[k]]], np.float32), np.array([[[v]]], np.float32), None,
           np.array([[g]], np.float32), np.array([[beta]], np.float32), np.array([[[[s0]]]], np.float32)]
    out, state = run(DOMAIN, OP, 1, ins, **RESOLVED)[:2]
    s1 = 0.5 * s0 + k * beta * (v - 0.5 * s0 * k)
    np.testing.assert_allclose(state.reshape(-1), [s1], rtol=1e-6)
    np.testing.assert_allclose(out.reshape(-1), [s1 * q], rtol=1e-6)


@pytest.mark.parametrize(("inputs", "n_out"), [
    pytest.param([Q, K, V, CU, DECAY, BETA, STATE], 2, id="heads"),
    pytest.param([PACKED, None, None, CU, DECAY, BETA, STATE], 2, id="packed"),
])
def test_shape_formulas_match_onnxruntime(inputs: list[np.ndarray | None], n_out: int) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, {}, n_out=n_out)


S3 = [[T, HQ, DK], [T, HQ, DK], [T, HV, DV], [B + 1]]
@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[T, HQ, DK], [T, HQ, DK], None, [B + 1], [T, HV], [T, HV]], {}, "gateddeltanet_c1", id="kv_pair"),
    pytest.param([[T, 20], None, None, [B + 1], [T, HV], [T, HV]], {}, "gateddeltanet_c2", id="packed_state"),
    pytest.param([[T, HQ, DK], [T, HQ, DK + 1], [T, HV, DV], [B + 1], [T, HV], [T, HV]], {}, "gateddeltanet_c3",
                 id="key_shape"),
    pytest.param([[T, 3, DK], [T, 3, DK], [T, HV, DV], [B + 1], [T, HV], [T, HV]], {}, "gateddeltanet_c4",
                 id="inverse_gqa"),
    pytest.param([*S3, [T, HV], [T, HV], [B, HV, DV + 1, DK]], {}, "gateddeltanet_c7", id="state_shape"),
    pytest.param([*S3, None, [T, HV]], {}, "gateddeltanet_c8", id="decay_needed"),
    pytest.param([*S3, [T, HV], None], {}, "gateddeltanet_c9", id="beta_needed"),
    pytest.param([*S3, [T, HV], [T, HV]], {"state_update_capacity": 2}, "gateddeltanet_c10", id="capture_count"),
    pytest.param([*S3, [T + 1, HV], [T, HV]], {}, "gateddeltanet_c11", id="decay_tokens"),
    pytest.param([*S3, [T, HV], [T, HV]], {"gate_activation": "softplus"}, "gateddeltanet_c12", id="gate_params"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
