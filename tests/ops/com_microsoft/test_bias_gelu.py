"""com.microsoft BiasGelu: the kernel against onnxruntime's CPU kernel (float, float16); the shape formula; a bias
that is not 1-D of A's last dim rejected."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    problem_checks,
    ramp,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "BiasGelu"
f32 = Seeded(17).f32

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 8) * 2, f32(8)], (1,), oracle="ort", rtol=1e-5, id="float", domain=DOMAIN),
    OracleCase(OP, {}, [f32(5), f32(5)], (1,), oracle="ort", rtol=1e-5, id="vector", domain=DOMAIN),
    OracleCase(OP, {}, [(f32(4, 8) * 2).astype(np.float16), f32(8).astype(np.float16)], (1,), oracle="ort",
               rtol=2e-3, id="fp16", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("inputs", [
    pytest.param([f32(2, 3), f32(2, 3)], id="2d-bias"),
    pytest.param([f32(2, 3), f32(1)], id="short-bias"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray]) -> None:
    with pytest.raises(ValueError, match="B must be 1-D"):
        run(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize("inputs", [[ramp(2, 3), ramp(3)], [ramp(2, 3, 4), ramp(4)]])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3], [4]], {}, "binding", id="bias-length"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
