"""com.microsoft QLinearConv: the kernel against onnxruntime (uint8 and int8 data and weights, per-tensor and
per-output-channel weight scales, bias, groups, strides, pads, dilations, NCHW and channels_last), the shape formula
against onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QLinearConv"
RNG = np.random.default_rng(43)


def f(v: float | list[float]) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(xt: type[np.integer[Any]], wt: type[np.integer[Any]], x_nchw: tuple[int, ...], w_shape: tuple[int, ...],
         attrs: dict[str, Any], id: str, *, per_channel: bool = False, bias: bool = True) -> OracleCase:
    x = full(xt, *x_nchw)
    if attrs.get("channels_last"):
        x = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    m = w_shape[0]
    w = full(wt, *w_shape)
    w_scale = f(list(RNG.uniform(0.002, 0.01, m))) if per_channel else f(0.005)
    w_zp = np.zeros(m, wt) if per_channel else np.array(0 if wt == np.int8 else 120, wt)
    b = RNG.integers(-2000, 2000, m).astype(np.int32) if bias else None
    x_zp = np.array(3 if xt == np.int8 else 128, xt)
    inputs = [x, f(0.02), x_zp, w, w_scale, w_zp, f(0.11), np.array(-5 if xt == np.int8 else 100, xt), b]
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(np.uint8, np.uint8, (1, 3, 6, 6), (4, 3, 3, 3), {}, "u8_basic"),
    case(np.uint8, np.int8, (2, 3, 7, 6), (4, 3, 3, 2), {"strides": [2, 1], "pads": [1, 0, 1, 1]},
         "u8_s8_strides_pads", per_channel=True),
    case(np.int8, np.int8, (1, 4, 6, 6), (6, 2, 3, 3), {"group": 2, "dilations": [2, 1]}, "i8_groups_dilations"),
    case(np.uint8, np.int8, (1, 4, 5, 5), (4, 1, 3, 3), {"group": 4, "pads": [1, 1, 1, 1]}, "u8_depthwise",
         per_channel=True, bias=False),
    case(np.uint8, np.uint8, (1, 3, 6, 5), (5, 3, 2, 2), {"channels_last": 1}, "u8_nhwc"),
    case(np.int8, np.int8, (2, 4, 5, 6), (6, 2, 3, 1), {"channels_last": 1, "group": 2, "strides": [1, 2]},
         "i8_nhwc_groups", per_channel=True),
    case(np.uint8, np.int8, (1, 2, 9), (3, 2, 3), {"auto_pad": "SAME_UPPER"}, "u8_1d_same_upper"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("x_shape", "w_shape", "attrs"), [
    ((1, 3, 6, 6), (4, 3, 3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ((1, 6, 6, 3), (4, 3, 3, 3), {"channels_last": 1}),
])
def test_shape_formula_matches_onnxruntime(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                                           attrs: dict[str, Any]) -> None:
    z = np.array(0, np.uint8)
    inputs = [np.zeros(x_shape, np.uint8), f(0.1), z, np.zeros(w_shape, np.uint8), f(0.1), z, f(0.1), z, None]
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[1, 3, 5, 5], [], [], [4, 2, 3, 3], [], [], [], [], None], {}, "qlinearconv_c2", id="v1-channels"),
    pytest.param([[1, 3, 5, 5], [], [], [4, 3, 3, 3], [3], [3], [], [], None], {}, "qlinearconv_c8",
                 id="v1-w_scale_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
