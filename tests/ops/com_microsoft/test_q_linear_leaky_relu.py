"""com.microsoft QLinearLeakyRelu: the kernel against onnxruntime (int8 and uint8, every 8-bit value through the
table, alpha default, small, negative and above one, an absent X_zero_point), the shape formula against
onnxruntime, the absent Y_zero_point (onnxruntime aborts on it) against a zero one, rejected scales."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "QLinearLeakyRelu"


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def every(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    """Every value of dtype, tiled into `shape` (whose size is a multiple of 256)."""
    info = np.iinfo(dtype)
    return np.arange(info.min, info.max + 1).astype(dtype).reshape(shape)


def case(dtype: type[np.integer[Any]], xs: float, xz: int | None, ys: float, yz: int, alpha: float | None,
         id: str) -> OracleCase:
    x = every(dtype, 4, 8, 8)
    zx = None if xz is None else np.array(xz, dtype)
    attrs = {} if alpha is None else {"alpha": alpha}
    return OracleCase(OP, attrs, [x, f(xs), zx, f(ys), np.array(yz, dtype)], (1,), oracle="ort", id=id,
                      domain=DOMAIN)


CASES = [
    case(np.int8, 0.05, 0, 0.05, 0, None, "i8_default_alpha"),
    case(np.int8, 0.0731, -17, 0.0213, 30, 0.1, "i8_offsets"),
    case(np.uint8, 0.05, 128, 0.04, 100, 0.2, "u8_centred"),
    case(np.uint8, 0.113, 200, 0.0937, 50, -0.5, "u8_negative_alpha"),
    case(np.uint8, 0.02, None, 0.031, 7, 1.7, "u8_no_x_zero_point_alpha_above_one"),
    case(np.int8, 0.3, 10, 0.7, -5, 0.01, "i8_coarse"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_absent_y_zero_point_means_zero() -> None:
    x = every(np.uint8, 256)
    (absent,) = run(DOMAIN, OP, 1, [x, f(0.05), np.array(128, np.uint8), f(1 / 256), None], alpha=0.1)
    (zero,) = run(DOMAIN, OP, 1, [x, f(0.05), np.array(128, np.uint8), f(1 / 256), np.array(0, np.uint8)], alpha=0.1)
    np.testing.assert_array_equal(absent, zero)


@pytest.mark.parametrize("shape", [(3,), (2, 1, 5), ()])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    z = np.array(0, np.int8)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [np.zeros(shape, np.int8), f(0.1), z, f(0.1), z], {"alpha": 0.1})


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[3], [2], [], [], []], "qlinearleakyrelu_c1", id="v1-x_scale"),
    pytest.param([[3], [], [], [], [1, 1]], "qlinearleakyrelu_c4", id="v1-y_zero_point"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
