"""com.microsoft Gelu: the kernel against onnxruntime's CPU kernel (float, float16; double it expands into an Erf
onnxruntime has no double kernel for, so double is checked against math.erf); the shape formula."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, assert_shapes_match_onnxruntime, oracle_tests, ramp, run

DOMAIN = "com.microsoft"
OP = "Gelu"
f32 = Seeded(15).f32

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 8) * 3], (1,), oracle="ort", rtol=1e-5, id="float", domain=DOMAIN),
    OracleCase(OP, {}, [(f32(4, 8) * 3).astype(np.float16)], (1,), oracle="ort", rtol=2e-3, id="fp16", domain=DOMAIN),
    OracleCase(OP, {}, [np.float32(1.5) * np.ones((), np.float32)], (1,), oracle="ort", id="scalar", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_double_follows_the_erf_formula() -> None:
    x = np.linspace(-6, 6, 49)
    (y,) = run(DOMAIN, OP, 1, [x])
    want = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("shape", [(2, 3), (4,), (1, 2, 3, 2)])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [ramp(*shape)])
