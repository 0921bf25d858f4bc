"""com.microsoft QuickGelu: the kernel against onnxruntime's CPU kernel (float, float16, double) for the default
alpha and others, negative included; the shape formula."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, assert_shapes_match_onnxruntime, oracle_tests, ramp

DOMAIN = "com.microsoft"
OP = "QuickGelu"
f32 = Seeded(16).f32
X = f32(3, 16) * 4

CASES = [
    OracleCase(OP, {}, [X], (1,), oracle="ort", rtol=1e-5, id="default-alpha", domain=DOMAIN),
    OracleCase(OP, {"alpha": -0.75}, [X], (1,), oracle="ort", rtol=1e-5, id="negative-alpha", domain=DOMAIN),
    OracleCase(OP, {"alpha": 1.0}, [X.astype(np.float16)], (1,), oracle="ort", rtol=2e-3, id="fp16", domain=DOMAIN),
    OracleCase(OP, {"alpha": 2.5}, [X.astype(np.float64)], (1,), oracle="ort", rtol=1e-6, id="double",
               domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("shape", [(2, 3), (5,), (1, 2, 3, 2)])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [ramp(*shape)], {"alpha": 0.5})
