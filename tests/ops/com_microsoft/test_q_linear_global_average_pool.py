"""com.microsoft QLinearGlobalAveragePool: the kernel against onnxruntime (int8 and uint8, NCHW and channels_last,
1-D to 3-D images, large images whose int32 sums need the zero point folded in), the shape formula against
onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QLinearGlobalAveragePool"
RNG = np.random.default_rng(29)


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(dtype: type[np.integer[Any]], shape: tuple[int, ...], channels_last: int | None, xs: float, xz: int,
         ys: float, yz: int, id: str) -> OracleCase:
    attrs = {} if channels_last is None else {"channels_last": channels_last}
    inputs = [full(dtype, *shape), f(xs), np.array(xz, dtype), f(ys), np.array(yz, dtype)]
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, (2, 3, 5, 7), None, 0.05, 128, 0.02, 100, "u8_nchw"),
    case(np.int8, (2, 3, 5, 7), 0, 0.0731, -3, 0.0513, 10, "i8_nchw"),
    case(np.uint8, (2, 5, 7, 3), 1, 0.1, 7, 0.03, 0, "u8_nhwc"),
    case(np.int8, (1, 9, 4), 1, 0.02, 100, 0.011, -20, "i8_nhwc_1d"),
    case(np.uint8, (1, 2, 3, 4, 5), 0, 0.3, 0, 0.2, 50, "u8_3d"),
    case(np.int8, (1, 2, 40, 40), 0, 0.25, -128, 0.1, 0, "i8_large_image"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("shape", "channels_last"), [((2, 3, 4, 5), 0), ((2, 4, 5, 3), 1), ((1, 2, 7), 0)])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...], channels_last: int) -> None:
    z = np.array(0, np.uint8)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [np.zeros(shape, np.uint8), f(0.1), z, f(0.1), z],
                                    {"channels_last": channels_last})


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [], [], [], []], "qlinearglobalaveragepool_c1", id="v1-rank"),
    pytest.param([[2, 3, 4], [], [], [2], []], "qlinearglobalaveragepool_c4", id="v1-y_scale"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
