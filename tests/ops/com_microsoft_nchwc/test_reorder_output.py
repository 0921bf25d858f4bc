"""com.microsoft.nchwc ReorderOutput: the kernel against onnxruntime's CPU kernel, its shape formula against
onnxruntime's shapes, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    problem_checks,
    ramp,
    run,
    version,
)

DOMAIN = "com.microsoft.nchwc"
OP = "ReorderOutput"
f32 = Seeded(12).f32


def _case(x: np.ndarray, cid: str, **attrs: Any) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", rtol=0, id=cid, domain=DOMAIN)


CASES = [
    _case(f32(2, 32, 3, 5), "nchw-20", channels=20),
    _case(f32(1, 16, 2, 3), "nchw-16", channels=16),
    _case(f32(1, 16, 2, 3), "nchw-1", channels=1),
    _case(f32(2, 32, 3, 2), "nhwc-30", channels=30, channels_last=1),
]
SHAPES = [
    ("nchw-17", [ramp(1, 32, 2, 2)], {"channels": 17}),
    ("nhwc-5", [ramp(2, 16, 1, 3)], {"channels": 5, "channels_last": 1}),
]
REJECTED = [
    ([[1, 24, 2, 2]], {"channels": 20}, "reorderoutput_c1"),
    ([[1, 32, 2, 2]], {"channels": 16}, "reorderoutput_c2"),
    ([[1, 16, 2, 2]], {"channels": 17}, "reorderoutput_c2"),
    ([[1, 16, 2, 2]], {}, "reorderoutput_c0"),
]
INVALID = [
    ("channels-too-few", [ramp(1, 32, 2, 2)], {"channels": 16, "channels_last": 0}),
    ("not-blocked", [ramp(1, 24, 2, 2)], {"channels": 20, "channels_last": 0}),
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


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


def test_round_trip_through_reorder_input() -> None:
    x = ramp(2, 12, 3, 4)
    (blocked,) = run(DOMAIN, "ReorderInput", 1, [x], channels_last=0)
    (back,) = run(DOMAIN, OP, 1, [blocked], channels=12, channels_last=1)
    assert np.array_equal(back, np.moveaxis(x, 1, 3))
