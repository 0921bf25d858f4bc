"""com.microsoft ScaledSiLU: the kernel against onnxruntime's CPU kernel (float, float16) with the alpha attribute and
with the scale input (float and float16 scales), negative scales included; the float16 case needs the rounding to
T after each step; the shape formula against onnxruntime."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, assert_shapes_match_onnxruntime, oracle_tests, ramp

DOMAIN = "com.microsoft"
OP = "ScaledSiLU"
f32 = Seeded(31).f32
X = f32(3, 40) * 6
H = X.astype(np.float16)

CASES = [
    OracleCase(OP, {}, [X], (1,), oracle="ort", rtol=1e-6, id="default-alpha", domain=DOMAIN),
    OracleCase(OP, {"alpha": 2.5}, [X], (1,), oracle="ort", rtol=1e-6, id="alpha", domain=DOMAIN),
    OracleCase(OP, {"alpha": 2.5}, [X, np.array(-1.75, np.float32)], (1,), oracle="ort", rtol=1e-6,
               id="scale-wins-over-alpha", domain=DOMAIN),
    OracleCase(OP, {}, [X, np.array(0.3, np.float16)], (1,), oracle="ort", rtol=1e-6, id="fp16-scale", domain=DOMAIN),
    OracleCase(OP, {"alpha": 1.7}, [H], (1,), oracle="ort", rtol=0, id="fp16-stepwise", domain=DOMAIN),
    OracleCase(OP, {}, [H, np.array(-2.2, np.float32)], (1,), oracle="ort", rtol=0, id="fp16-float-scale",
               domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("shape", [(2, 3), (5,), (1, 2, 3, 2)])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [ramp(*shape)], {"alpha": 0.5})
