"""com.microsoft FastGelu: the kernel and the shape formula against onnxruntime, and rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    kernel_outputs,
    oracle_params,
    problem_checks,
    ramp,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "FastGelu"
f32 = Seeded(7).f32

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 8)], (1,), oracle="ort", rtol=1e-5, id="plain", domain=DOMAIN),
    OracleCase(OP, {}, [f32(2, 3, 8), f32(8)], (1,), oracle="ort", rtol=1e-5, id="bias", domain=DOMAIN),
    OracleCase(OP, {}, [f32(4, 8).astype(np.float16)], (1,), oracle="ort", rtol=2e-3, id="fp16", domain=DOMAIN),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)
    assert len(kernel_outputs(case, opset)) == 1


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([f32(2, 3), f32(4)], {}, "bias", id="v1-bias_length"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **attrs)


@pytest.mark.parametrize("inputs", [
    pytest.param([ramp(2, 3)], id="v1-2x3"),
    pytest.param([ramp(2, 3, 4), ramp(4)], id="v1-2x3x4,4"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3], [4]], {}, "binding", id="v1-2x3,4-binding"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
