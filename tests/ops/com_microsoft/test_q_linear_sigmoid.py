"""com.microsoft QLinearSigmoid: the kernel against onnxruntime (int8 and uint8, every 8-bit value through the
table, scales that spread the output over the 8-bit range, an absent X_zero_point), the shape formula against
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
OP = "QLinearSigmoid"


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def every(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    """Every value of dtype, tiled into `shape` (whose size is a multiple of 256)."""
    info = np.iinfo(dtype)
    return np.arange(info.min, info.max + 1).astype(dtype).reshape(shape)


def case(dtype: type[np.integer[Any]], xs: float, xz: int | None, ys: float, yz: int, id: str) -> OracleCase:
    x = every(dtype, 4, 8, 8)
    zx = None if xz is None else np.array(xz, dtype)
    return OracleCase(OP, {}, [x, f(xs), zx, f(ys), np.array(yz, dtype)], (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(np.int8, 0.05, 0, 1 / 256, -128, "i8_symmetric"),
    case(np.int8, 0.0731, -17, 0.0041, -100, "i8_offsets"),
    case(np.uint8, 0.05, 128, 1 / 256, 0, "u8_centred"),
    case(np.uint8, 0.113, 200, 0.0037, 3, "u8_offsets"),
    case(np.uint8, 0.02, None, 1 / 255, 0, "u8_no_x_zero_point"),
    case(np.int8, 2.5, 0, 0.5, 0, "i8_coarse"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_absent_y_zero_point_means_zero() -> None:
    x = every(np.uint8, 256)
    (absent,) = run(DOMAIN, OP, 1, [x, f(0.05), np.array(128, np.uint8), f(1 / 256), None])
    (zero,) = run(DOMAIN, OP, 1, [x, f(0.05), np.array(128, np.uint8), f(1 / 256), np.array(0, np.uint8)])
    np.testing.assert_array_equal(absent, zero)


@pytest.mark.parametrize("shape", [(3,), (2, 1, 5), ()])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    z = np.array(0, np.int8)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [np.zeros(shape, np.int8), f(0.1), z, f(0.1), z])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[3], [2], [], [], []], "qlinearsigmoid_c1", id="v1-x_scale"),
    pytest.param([[3], [], [], [], [1, 1]], "qlinearsigmoid_c4", id="v1-y_zero_point"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
