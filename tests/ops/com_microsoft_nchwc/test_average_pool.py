"""com.microsoft.nchwc AveragePool: the kernel against onnxruntime's CPU kernel over every attribute, its shape formula
against onnxruntime's shapes (SAME padding with dilations, where onnxruntime's own schema inference disagrees with its
kernel: reading averagepool_r1), and rejected nodes."""

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
OP = "AveragePool"
f32 = Seeded(14).f32


def _case(x: np.ndarray, cid: str, **attrs: Any) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", rtol=1e-5, id=cid, domain=DOMAIN)


CASES = [
    _case(f32(2, 32, 7, 6), "k3s2p1", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
    _case(f32(1, 16, 7, 6), "ceil", kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1),
    _case(f32(1, 16, 8, 6), "ceil-asymmetric-pads", kernel_shape=[3, 3], strides=[2, 3], pads=[0, 1, 2, 1],
          ceil_mode=1),
    _case(f32(1, 16, 7, 6), "dilated", kernel_shape=[2, 2], dilations=[2, 1]),
    _case(f32(1, 16, 7, 6), "same-upper-dilated", kernel_shape=[2, 2], dilations=[2, 1], auto_pad="SAME_UPPER"),
    _case(f32(1, 16, 7, 6), "same-lower-strided", kernel_shape=[2, 3], dilations=[2, 1], strides=[2, 2],
          auto_pad="SAME_LOWER"),
    _case(f32(1, 16, 7, 6), "same-upper-ceil", kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER", ceil_mode=1),
    _case(f32(1, 16, 8, 6), "valid-ceil", kernel_shape=[3, 3], strides=[2, 2], auto_pad="VALID", ceil_mode=1),
    _case(f32(2, 32, 7, 6), "include-pad", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1),
    _case(f32(1, 16, 5, 5), "include-pad-ceil", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 0, 1, 0], ceil_mode=1,
          count_include_pad=1),
]
SHAPES = [
    ("k3s2p1", [ramp(1, 32, 9, 8)], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ("same-dilated", [ramp(1, 16, 7, 6)], {"kernel_shape": [2, 2], "dilations": [2, 2], "auto_pad": "SAME_UPPER"}),
    ("valid-ceil", [ramp(1, 16, 8, 6)], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "VALID",
                                         "ceil_mode": 1}),
]
REJECTED = [
    ([[1, 20, 4, 4]], {"kernel_shape": [2, 2]}, "averagepool_c1"),
    ([[1, 16, 2, 2]], {"kernel_shape": [3, 3]}, "averagepool_c2"),
    ([[1, 16, 3, 3]], {"kernel_shape": [1, 1], "strides": [4, 4], "auto_pad": "SAME_UPPER"}, "averagepool_c3"),
    ([[1, 16, 4, 4]], {"kernel_shape": [2, 2, 2]}, "attr_length"),
    ([[1, 16, 4, 4]], {"kernel_shape": [2, 2], "pads": [0, 2, 0, 0]}, "averagepool_c4"),
]
INVALID = [
    ("not-blocked", [ramp(1, 20, 4, 4)], {"kernel_shape": [2, 2]}),
    ("kernel-3d", [ramp(1, 16, 4, 4)], {"kernel_shape": [2, 2, 2]}),
    ("pad-not-below-kernel", [ramp(1, 16, 4, 4)], {"kernel_shape": [2, 2], "pads": [0, 0, 2, 0]}),
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


def test_same_padding_with_dilations_is_a_reading_of_onnxruntimes_schema_inference() -> None:
    (reading,) = version(DOMAIN, OP, 1).readings
    assert reading.id == "averagepool_r1"
