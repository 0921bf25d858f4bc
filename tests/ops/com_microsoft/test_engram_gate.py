"""com.microsoft EngramGate: the kernel against onnxruntime's CPU kernel (with and without the normalised output,
epsilon, float16), the shape formulas against onnxruntime, and the gate written out by hand."""

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
    run,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "EngramGate"
f32 = Seeded(47).f32
B, S, M, H = 2, 3, 4, 8


def _inputs(normed: bool) -> list[np.ndarray]:
    return [f32(B, S, M, H), f32(B, S, M, H), f32(B, S, H), f32(M, H), f32(M, H)] + ([f32(M, H)] if normed else [])


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray], rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), n_out=len(inputs) - 4, oracle="ort", rtol=rtol, id=ident,
                      domain=DOMAIN)


CASES = [
    _case("gate", {}, _inputs(False)),
    _case("gate-and-normed", {}, _inputs(True)),
    _case("epsilon", {"epsilon": 0.5}, _inputs(True)),
    _case("float16", {}, [a.astype(np.float16) for a in _inputs(True)], rtol=5e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_gate_by_hand() -> None:
    """One token, one connection, H = 4: key = query = [1, -1, 1, -1] (RMS 1), unit scales, so dot = 4 / sqrt(4) = 2
    and the gate is sigmoid(sqrt(2)); opposite keys give sigmoid(-sqrt(2))."""
    k = np.array([[[[1.0, -1.0, 1.0, -1.0]]]], np.float32)
    ones, value = np.ones((1, 4), np.float32), np.array([[[1.0, 2.0, 3.0, 4.0]]], np.float32)
    for key, sign in ((k, 1.0), (-k, -1.0)):
        got = run(DOMAIN, OP, 1, [key, k, value, ones, ones, None], epsilon=0.0)[0]
        gate = 1.0 / (1.0 + np.exp(-sign * np.sqrt(2.0)))
        np.testing.assert_allclose(got, gate * value[:, :, None, :], rtol=1e-6)


def test_value_must_share_the_tokens() -> None:
    with pytest.raises(ValueError, match="value"):
        run(DOMAIN, OP, 1, [f32(B, S, M, H), f32(B, S, M, H), f32(B, S, H + 1), f32(M, H), f32(M, H), None],
            epsilon=1e-5)


@pytest.mark.parametrize("normed", [False, True])
def test_shape_formula_matches_onnxruntime(normed: bool) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, _inputs(normed), {}, n_out=2 if normed else 1)
