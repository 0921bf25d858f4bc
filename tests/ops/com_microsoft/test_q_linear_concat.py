"""com.microsoft QLinearConcat: the kernel against onnxruntime (int8 and uint8, each input requantized from its own
scale and zero point to Y's, one already at Y's, negative and positive axes, one to three inputs), the shape
formula against onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QLinearConcat"
RNG = np.random.default_rng(37)


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(dtype: type[np.integer[Any]], axis: int, y: tuple[float, int],
         parts: list[tuple[tuple[int, ...], float, int]], id: str) -> OracleCase:
    inputs: list[Any] = [f(y[0]), np.array(y[1], dtype)]
    for shape, scale, zp in parts:
        inputs += [full(dtype, *shape), f(scale), np.array(zp, dtype)]
    return OracleCase(OP, {"axis": axis}, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, 1, (0.1, 128), [((2, 3), 0.05, 100), ((2, 4), 0.2, 3)], "u8_two"),
    case(np.int8, 0, (0.0731, -3), [((1, 4), 0.02, 10), ((2, 4), 0.0731, -3), ((3, 4), 0.3, -100)],
         "i8_three_one_at_y"),
    case(np.uint8, -1, (0.05, 0), [((2, 2, 3), 0.15, 7), ((2, 2, 1), 0.01, 250)], "u8_negative_axis"),
    case(np.int8, 1, (0.5, 0), [((2, 5, 2), 0.1, 0)], "i8_one_input"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("axis", "shapes"), [(0, [(2, 3), (4, 3)]), (-1, [(2, 3, 1), (2, 3, 5), (2, 3, 2)])])
def test_shape_formula_matches_onnxruntime(axis: int, shapes: list[tuple[int, ...]]) -> None:
    z = np.array(0, np.uint8)
    inputs: list[Any] = [f(0.1), z]
    for shape in shapes:
        inputs += [np.zeros(shape, np.uint8), f(0.1), z]
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, {"axis": axis})


@pytest.mark.parametrize(("shapes", "axis", "check"), [
    pytest.param([[], [], [2, 3], [], [], [2, 3], []], 0, "qlinearconcat_c1", id="v1-triples"),
    pytest.param([[], [], [2, 3], [], []], 2, "qlinearconcat_c2", id="v1-axis"),
    pytest.param([[], [], [2, 3], [], [], [3, 3], [], []], 1, "qlinearconcat_c3", id="v1-dims"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], axis: int, check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {"axis": axis})
