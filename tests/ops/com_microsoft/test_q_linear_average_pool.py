"""com.microsoft QLinearAveragePool: the kernel against onnxruntime (int8 and uint8; NCHW and channels_last; 1-D to
3-D windows; strides, explicit pads with and without count_include_pad, ceil_mode, SAME_UPPER/SAME_LOWER/VALID),
the shape formula against onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QLinearAveragePool"
RNG = np.random.default_rng(41)


def f(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(dtype: type[np.integer[Any]], shape: tuple[int, ...], attrs: dict[str, Any], id: str,
         q: tuple[float, int, float, int] = (0.05, 10, 0.04, 5)) -> OracleCase:
    inputs = [full(dtype, *shape), f(q[0]), np.array(q[1], dtype), f(q[2]), np.array(q[3], dtype)]
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, (2, 3, 6, 7), {"kernel_shape": [2, 3]}, "u8_2d", (0.05, 128, 0.0513, 100)),
    case(np.int8, (2, 3, 6, 7), {"kernel_shape": [3, 3], "strides": [2, 2]}, "i8_strides", (0.0731, -3, 0.05, 1)),
    case(np.uint8, (1, 2, 5, 5), {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}, "u8_pads_excluded"),
    case(np.int8, (1, 2, 5, 5), {"kernel_shape": [3, 3], "pads": [1, 2, 2, 1], "count_include_pad": 1},
         "i8_pads_counted"),
    case(np.uint8, (1, 2, 7, 6), {"kernel_shape": [3, 2], "strides": [2, 2], "ceil_mode": 1}, "u8_ceil_mode"),
    case(np.int8, (1, 2, 7, 6), {"kernel_shape": [3, 2], "strides": [2, 1], "auto_pad": "SAME_UPPER"},
         "i8_same_upper"),
    case(np.uint8, (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER"},
         "u8_same_lower"),
    case(np.int8, (1, 2, 7, 6), {"kernel_shape": [2, 2], "auto_pad": "VALID"}, "i8_valid"),
    case(np.uint8, (2, 6, 7, 3), {"kernel_shape": [2, 3], "channels_last": 1, "pads": [1, 0, 0, 1]},
         "u8_nhwc"),
    case(np.int8, (1, 3, 9), {"kernel_shape": [4], "strides": [3]}, "i8_1d"),
    case(np.uint8, (1, 2, 4, 5, 6), {"kernel_shape": [2, 2, 3], "count_include_pad": 1, "pads": [1, 0, 1, 0, 1, 2]},
         "u8_3d"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("shape", "attrs"), [
    ((1, 2, 7, 6), {"kernel_shape": [3, 2], "strides": [2, 2], "ceil_mode": 1}),
    ((1, 2, 7, 6), {"kernel_shape": [3, 2], "strides": [2, 1], "auto_pad": "SAME_LOWER"}),
    ((2, 6, 7, 3), {"kernel_shape": [2, 3], "channels_last": 1, "pads": [1, 0, 0, 1]}),
])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...], attrs: dict[str, Any]) -> None:
    z = np.array(0, np.uint8)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [np.zeros(shape, np.uint8), f(0.1), z, f(0.1), z], attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3], [], [], [], []], {"kernel_shape": [2]}, "qlinearaveragepool_c1", id="v1-rank"),
    pytest.param([[1, 1, 3, 3], [], [], [], []], {"kernel_shape": [4, 1]}, "qlinearaveragepool_c2", id="v1-fit"),
    pytest.param([[1, 1, 5, 5], [], [], [], []], {"kernel_shape": [2, 2], "pads": [2, 0, 0, 0]},
                 "qlinearaveragepool_c8", id="v1-pad_as_large_as_kernel"),
    pytest.param([[1, 1, 5, 5], [1], [], [], []], {"kernel_shape": [2, 2]}, "qlinearaveragepool_c4", id="v1-x_scale"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
