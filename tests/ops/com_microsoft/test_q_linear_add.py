"""com.microsoft QLinearAdd: the kernel against onnxruntime (int8 and uint8, every broadcast pattern its CPU kernel
treats apart, scales that make near ties), the shape formula against onnxruntime, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    kernel_outputs,
    oracle_params,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "QLinearAdd"
RNG = np.random.default_rng(11)


def f(v: float | list[float]) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(dtype: type[np.integer[Any]], a_shape: tuple[int, ...], b_shape: tuple[int, ...], scales: tuple[float, ...],
         zps: tuple[int, ...] | None, id: str) -> OracleCase:
    a, b = full(dtype, *a_shape), full(dtype, *b_shape)
    z = [None, None, None] if zps is None else [np.array(v, dtype) for v in zps]
    inputs = [a, f(scales[0]), z[0], b, f(scales[1]), z[1], f(scales[2]), z[2]]
    return OracleCase(OP, {}, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


# decimal scales put many exact values a few float32 units from a .5 tie: the evaluation order decides them
CASES = [
    case(np.uint8, (300,), (300,), (0.1, 0.2, 0.3), (3, 200, 128), "u8_same_shape"),
    case(np.int8, (300,), (300,), (0.1, 0.7, 0.15), (-3, 100, -128), "i8_same_shape"),
    case(np.uint8, (4, 75), (4, 1), (0.05, 0.3, 0.15), (10, 20, 30), "u8_b_per_row"),
    case(np.int8, (4, 1), (4, 75), (0.3, 0.05, 0.7), (5, -5, 0), "i8_a_per_row"),
    case(np.uint8, (75,), (4, 75), (0.125, 0.3, 0.1), (0, 255, 7), "u8_a_per_column"),
    case(np.int8, (300,), (), (0.7, 0.1, 0.3), (1, 2, 3), "i8_b_scalar"),
    case(np.uint8, (), (300,), (0.2, 0.15, 0.05), (9, 8, 7), "u8_a_scalar"),
    case(np.int8, (1,), (1,), (0.1, 0.2, 0.3), (-7, 3, 1), "i8_one_element"),
    case(np.uint8, (5, 1, 1), (1, 1, 60), (0.1, 0.2, 0.3), (1, 2, 3), "u8_outer"),
    case(np.int8, (3, 40), (3, 40), (0.5, 0.25, 0.125), (0, 0, 0), "i8_zero_zero_points"),
]


def test_absent_zero_points_mean_zero() -> None:
    # onnxruntime's type inference rejects a node without its zero points (an expectation records it), so the
    # absent case is checked against the kernel's own zero-zero-point case, which onnxruntime confirms above
    c = CASES[-1]
    a, sa, _, b, sb, _, sc, _ = c.inputs
    (with_zeros,) = kernel_outputs(c, 1)
    (absent,) = run(DOMAIN, OP, 1, [a, sa, None, b, sb, None, sc, None])
    np.testing.assert_array_equal(absent, with_zeros)


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)
    assert len(kernel_outputs(case, opset)) == 1


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_ties_follow_onnxruntime_not_real_arithmetic() -> None:
    # the real-number formula rounds some of these cells the other way; the kernel agrees with onnxruntime
    c = next(c for c in CASES if c.id == "u8_a_per_column")
    (got,) = kernel_outputs(c, 1)
    a, sa, za, b, sb, zb, sc, zc = c.inputs
    real = (float(sa) * (a.astype(np.float64) - int(za)) + float(sb) * (b.astype(np.float64) - int(zb))) / float(sc)
    exact = np.clip(np.rint(real) + int(zc), 0, 255).astype(np.uint8)
    assert np.count_nonzero(got != exact) > 0


U8 = np.zeros(3, np.uint8)


@pytest.mark.parametrize(("inputs", "message"), [
    pytest.param([U8, f([1, 2]), None, U8, f(1), None, f(1), None], "A_scale", id="v1-scale_not_scalar"),
    pytest.param([U8, f(1), None, U8.astype(np.int8), f(1), None, f(1), None], "one type", id="v1-mixed_types"),
    pytest.param([U8, f(1), None, np.zeros(4, np.uint8), f(1), None, f(1), None], "broadcast", id="v1-shapes"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((4, 1), (1, 5)), ((), (2, 2))])
def test_shape_formula_matches_onnxruntime(shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    a, b, z = np.zeros(shapes[0], np.uint8), np.zeros(shapes[1], np.uint8), np.array(0, np.uint8)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [a, f(1), z, b, f(1), z, f(1), z])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [], [], [4], [], [], [], []], "qlinearadd_c1", id="v1-broadcast"),
    pytest.param([[2, 3], [2], [], [3], [], [], [], []], "qlinearadd_c2", id="v1-a_scale"),
    pytest.param([[2, 3], [], [], [3], [], [], [], [3]], "qlinearadd_c7", id="v1-c_zero_point"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
