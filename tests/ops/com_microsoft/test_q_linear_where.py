"""com.microsoft QLinearWhere: the kernel against onnxruntime (int8 and uint8, the three operands broadcast in each
pattern, X and Y requantized to Z's scale and zero point, one of them already at Z's), the shape formula against
onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QLinearWhere"
RNG = np.random.default_rng(31)


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(dtype: type[np.integer[Any]], shapes: tuple[tuple[int, ...], ...], scales: tuple[float, float, float],
         zps: tuple[int, int, int], id: str) -> OracleCase:
    cond = RNG.integers(0, 2, shapes[0]).astype(bool)
    x, y = full(dtype, *shapes[1]), full(dtype, *shapes[2])
    z = [np.array(v, dtype) for v in zps]
    inputs = [cond, x, f(scales[0]), z[0], y, f(scales[1]), z[1], f(scales[2]), z[2]]
    return OracleCase(OP, {}, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, ((4, 5), (4, 5), (4, 5)), (0.1, 0.2, 0.15), (3, 200, 128), "u8_same_shape"),
    case(np.int8, ((4, 5), (4, 5), (4, 5)), (0.0731, 0.0213, 0.05), (-3, 100, -20), "i8_same_shape"),
    case(np.uint8, ((4, 1), (1, 5), (5,)), (0.05, 0.3, 0.1), (10, 20, 30), "u8_broadcast"),
    case(np.int8, ((), (3, 4), ()), (0.3, 0.05, 0.7), (5, -5, 0), "i8_scalar_condition_and_y"),
    case(np.uint8, ((2, 3, 4), (4,), (3, 1)), (0.1, 0.1, 0.1), (7, 9, 7), "u8_x_at_z_scale"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("shapes", [((2, 3), (3,), (2, 1)), ((4, 1), (1, 5), ())])
def test_shape_formula_matches_onnxruntime(shapes: tuple[tuple[int, ...], ...]) -> None:
    z = np.array(0, np.int8)
    inputs = [np.zeros(shapes[0], bool), np.zeros(shapes[1], np.int8), f(0.1), z, np.zeros(shapes[2], np.int8),
              f(0.1), z, f(0.1), z]
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [4], [], [], [3], [], [], [], []], "qlinearwhere_c1", id="v1-broadcast"),
    pytest.param([[2, 3], [3], [], [], [3], [], [], [], [2]], "qlinearwhere_c7", id="v1-z_zero_point"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
