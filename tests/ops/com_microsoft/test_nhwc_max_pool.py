"""com.microsoft NhwcMaxPool: the kernel against onnxruntime's CPU kernel (int8, uint8) over kernel shapes, strides,
pads, dilations, ceil_mode and auto_pad (SAME without dilation: onnxruntime sizes SAME padding without it, see the
expectations), 1-D to 3-D; the shape formula against onnxruntime; rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "NhwcMaxPool"
RNG = np.random.default_rng(33)


def i8(*shape: int) -> np.ndarray:
    return RNG.integers(-128, 128, size=shape).astype(np.int8)


def u8(*shape: int) -> np.ndarray:
    return RNG.integers(0, 256, size=shape).astype(np.uint8)


def _case(attrs: dict[str, Any], x: np.ndarray, ident: str) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", rtol=0, id=ident, domain=DOMAIN)


CASES = [
    _case({"kernel_shape": [2, 2]}, i8(2, 5, 6, 3), "2d"),
    _case({"kernel_shape": [3, 2], "strides": [2, 1], "pads": [1, 0, 1, 1]}, u8(1, 6, 5, 4), "strides-pads"),
    _case({"kernel_shape": [3], "dilations": [2], "pads": [2, 1]}, i8(2, 9, 2), "1d-dilations"),
    _case({"kernel_shape": [2, 3], "strides": [2, 2], "ceil_mode": 1}, u8(1, 5, 6, 2), "ceil"),
    _case({"kernel_shape": [4, 1], "strides": [2, 2], "pads": [2, 0, 0, 0], "ceil_mode": 1}, i8(1, 4, 4, 2),
          "ceil-drops-window-in-padding"),
    _case({"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"}, i8(1, 6, 5, 3), "same-upper"),
    _case({"kernel_shape": [2, 2], "auto_pad": "SAME_LOWER"}, u8(1, 4, 5, 2), "same-lower"),
    _case({"kernel_shape": [2, 3], "strides": [1, 2], "auto_pad": "VALID"}, i8(2, 4, 7, 1), "valid"),
    _case({"kernel_shape": [2, 2, 2], "pads": [1, 0, 1, 0, 1, 0]}, i8(1, 3, 4, 3, 2), "3d"),
    _case({"kernel_shape": [2, 2], "pads": [1, 1, 1, 1]}, np.full((1, 3, 3, 2), -128, np.int8), "lowest-values"),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, case.inputs, case.attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3]], {"kernel_shape": []}, "nhwcmaxpool_c1", id="no-spatial"),
    pytest.param([[1, 3, 3, 2]], {"kernel_shape": [4, 1]}, "nhwcmaxpool_c2", id="kernel-too-big"),
    pytest.param([[1, 3, 3, 2]], {"kernel_shape": [2, 2], "auto_pad": "VALID", "pads": [1, 0, 0, 0]},
                 "nhwcmaxpool_c3", id="pads-and-auto-pad"),
    pytest.param([[1, 5, 5, 2]], {"kernel_shape": [2, 2], "pads": [0, 2, 0, 0]}, "nhwcmaxpool_c4", id="pad-of-kernel"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
