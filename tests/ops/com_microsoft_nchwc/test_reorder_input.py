"""com.microsoft.nchwc ReorderInput: the kernel against onnxruntime's CPU kernel (which this machine runs with blocks
of 16, the registry's block size), its shape formula against onnxruntime's shapes, and rejected nodes."""

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
OP = "ReorderInput"
f32 = Seeded(11).f32


def _case(x: np.ndarray, cid: str, **attrs: Any) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", rtol=0, id=cid, domain=DOMAIN)


CASES = [
    _case(f32(2, 20, 3, 5), "nchw-20"),
    _case(f32(1, 32, 2, 3), "nchw-two-blocks"),
    _case(f32(1, 4, 1, 1), "nchw-4"),
    _case(f32(2, 3, 5, 12), "nhwc-12", channels_last=1),
    _case(f32(1, 2, 2, 16), "nhwc-16", channels_last=1),
]
SHAPES = [
    ("nchw-36", [ramp(1, 36, 2, 2)], {}),
    ("nhwc-8", [ramp(2, 3, 1, 8)], {"channels_last": 1}),
]
REJECTED = [
    ([[1, 6, 2, 2]], {}, "reorderinput_c1"),
    ([[1, 2, 2, 6]], {"channels_last": 1}, "reorderinput_c1"),
    ([[1, 8, 2, 2]], {"channels_last": 2}, "attr_allowed"),
]
INVALID = [
    ("channels-6", [ramp(1, 6, 2, 2)], {"channels_last": 0}),
    ("rank-3", [ramp(8, 2, 2)], {"channels_last": 0}),
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


def test_padding_lanes_are_zero_and_channels_keep_their_pixel() -> None:
    x = ramp(1, 20, 2, 3) + 10
    (y,) = run(DOMAIN, OP, 1, [x], channels_last=0)
    stored = y.reshape(1, 2, 2, 3, 16)  # [N, blocks, H, W, lanes]
    assert np.array_equal(stored[0, 1, :, :, 4:], np.zeros((2, 3, 12), np.float32))
    assert stored[0, 1, 1, 2, 3] == x[0, 19, 1, 2]


def test_an_avx2_machines_channel_count_is_a_reading() -> None:
    readings = version(DOMAIN, OP, 1).readings
    assert [r.id for r in readings] == ["reorderinput_r1"]
