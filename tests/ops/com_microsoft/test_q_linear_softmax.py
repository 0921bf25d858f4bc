"""com.microsoft QLinearSoftmax: the kernel against onnxruntime (int8 and uint8; opset 13's softmax along one axis
and the older opsets' flattening at axis; a row of 1 element and rows long enough to need the table's shift), the
shape formula against onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QLinearSoftmax"
RNG = np.random.default_rng(23)


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(dtype: type[np.integer[Any]], shape: tuple[int, ...], attrs: dict[str, Any], xs: float, xz: int | None,
         ys: float, yz: int, id: str) -> OracleCase:
    zx = None if xz is None else np.array(xz, dtype)
    return OracleCase(OP, attrs, [full(dtype, *shape), f(xs), zx, f(ys), np.array(yz, dtype)], (1,), oracle="ort",
                      id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, (3, 17), {"opset": 13}, 0.05, 128, 1 / 256, 0, "u8_last_axis"),
    case(np.int8, (3, 17), {"opset": 13}, 0.0731, 3, 1 / 256, -128, "i8_last_axis"),
    case(np.uint8, (2, 5, 4), {"opset": 13, "axis": 1}, 0.1, 0, 1 / 255, 0, "u8_middle_axis"),
    case(np.int8, (2, 5, 4), {"opset": 13, "axis": 0}, 0.02, None, 0.0041, -100, "i8_first_axis_no_x_zero_point"),
    case(np.uint8, (2, 3, 4), {"opset": 12, "axis": 1}, 0.08, 10, 1 / 256, 0, "u8_opset12_flattens"),
    case(np.int8, (2, 3, 4), {"opset": 11, "axis": -2}, 0.3, 0, 1 / 256, -128, "i8_opset11_negative_axis"),
    case(np.uint8, (4, 1), {"opset": 13}, 0.1, 0, 1 / 256, 0, "u8_one_element_rows"),
    case(np.uint8, (2, 600), {"opset": 13}, 0.9, 0, 1 / 256, 0, "u8_long_rows_shifted_table"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("shape", "attrs"), [((3, 4), {"opset": 13}), ((2, 3, 4), {"opset": 12, "axis": 1})])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...], attrs: dict[str, Any]) -> None:
    z = np.array(0, np.uint8)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [np.zeros(shape, np.uint8), f(0.1), z, f(1 / 256), z], attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[3, 4], [], [], [], []], {"opset": 13, "axis": 2}, "qlinearsoftmax_c1", id="v1-axis"),
    pytest.param([[3, 4], [], [], [2], []], {"opset": 13}, "qlinearsoftmax_c4", id="v1-y_scale"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
