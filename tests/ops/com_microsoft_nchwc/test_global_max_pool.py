"""com.microsoft.nchwc GlobalMaxPool: the kernel against onnxruntime's CPU kernel, its shape formula against
onnxruntime's shapes, and rejected nodes."""

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

DOMAIN = "com.microsoft.nchwc"
OP = "GlobalMaxPool"
f32 = Seeded(13).f32
CASES = [
    OracleCase(OP, {}, [f32(2, 32, 3, 5)], (1,), oracle="ort", rtol=1e-5, id="2x32x3x5", domain=DOMAIN),
    OracleCase(OP, {}, [f32(1, 16, 1, 7)], (1,), oracle="ort", rtol=1e-5, id="1x16x1x7", domain=DOMAIN),
]
SHAPES: list[tuple[str, list[np.ndarray], dict[str, Any]]] = [("1x48x4x4", [ramp(1, 48, 4, 4)], {})]
REJECTED: list[tuple[list[list[int] | None], dict[str, Any], str]] = [([[1, 20, 2, 2]], {}, "globalmaxpool_c1")]
INVALID: list[tuple[str, list[np.ndarray | None], dict[str, Any]]] = [
    ("not-blocked", [ramp(1, 20, 2, 2)], {}),
    ("rank-3", [ramp(16, 2, 2)], {}),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("inputs", "attrs"), [pytest.param(i, a, id=n) for n, i, a in SHAPES])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [pytest.param(s, a, c, id=c) for s, a, c in REJECTED])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [pytest.param(i, a, id=n) for n, i, a in INVALID])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, inputs, **attrs)

