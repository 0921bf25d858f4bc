"""com.microsoft LinearAttentionGate: the kernel against onnxruntime's CPU kernel (with and without b, large
arguments where softplus is linear, float16), the shape formula against onnxruntime, and the values by hand."""

from __future__ import annotations

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
OP = "LinearAttentionGate"
f32 = Seeded(31).f32
rng = np.random.default_rng(31)
B, T, H = 2, 3, 4


def _scale() -> np.ndarray:
    return (-np.exp(rng.standard_normal(H))).astype(np.float32)


def _case(ident: str, inputs: list[np.ndarray | None], n_out: int, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), n_out=n_out, oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case("decay-and-beta", [f32(B, T, H), f32(H), _scale(), f32(B, T, H)], 2),
    _case("decay-only", [f32(B, T, H), f32(H), _scale()], 1),
    _case("large-arguments", [(f32(B, T, H) * 40).astype(np.float32), f32(H), _scale(),
                              (f32(B, T, H) * 40).astype(np.float32)], 2),
    _case("float16", [f32(B, T, H).astype(np.float16), f32(H), _scale(), f32(B, T, H).astype(np.float16)], 2,
          rtol=2e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_values_by_hand() -> None:
    a = np.array([[[0.0, 1.0]]], np.float32)
    dt_bias, scale = np.array([0.0, -1.0], np.float32), np.array([-2.0, -0.5], np.float32)
    b = np.array([[[0.0, np.log(3.0)]]], np.float32)
    decay, beta = run(DOMAIN, OP, 1, [a, dt_bias, scale, b])
    np.testing.assert_allclose(decay, [[[-2.0 * np.log(2.0), -0.5 * np.log(2.0)]]], rtol=1e-6)
    np.testing.assert_allclose(beta, [[[0.5, 0.75]]], rtol=1e-6)


def test_per_head_parameters_must_match_the_heads() -> None:
    with pytest.raises(ValueError, match="dt_bias"):
        run(DOMAIN, OP, 1, [f32(B, T, H), f32(H + 1), _scale()])


@pytest.mark.parametrize("with_b", [False, True])
def test_shape_formula_matches_onnxruntime(with_b: bool) -> None:
    inputs = [f32(B, T, H), f32(H), _scale(), f32(B, T, H) if with_b else None]
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, {}, n_out=2 if with_b else 1)
