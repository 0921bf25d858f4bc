"""ConvInteger: the kernel against onnx.reference (zero points per tensor and per filter, pads, strides, groups,
auto_pad, 1-D and 3-D), Conv's shape formula against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "ConvInteger"
RAND = Seeded(1234)
V10 = (10,)


def u8(*shape: int) -> np.ndarray:
    return RAND.ints(0, 256, shape, np.uint8)


def i8(*shape: int) -> np.ndarray:
    return RAND.ints(-128, 128, shape, np.int8)


X = u8(2, 4, 6, 5)

CASES = [
    OracleCase(OP, {}, [X, u8(3, 4, 3, 3)], V10, id="plain"),
    OracleCase(OP, {}, [X, i8(3, 4, 3, 3), np.uint8(128), np.int8(-3)], V10, id="zero_points"),
    OracleCase(OP, dict(pads=[1, 0, 2, 1], strides=[2, 1]), [X, u8(2, 4, 3, 2), u8(), u8(2)], V10,
               id="per_filter_zero_point"),
    OracleCase(OP, dict(group=2, dilations=[2, 1]), [X, u8(4, 2, 2, 2), u8(1), u8(1)], V10, id="group"),
    OracleCase(OP, dict(auto_pad="SAME_UPPER", strides=[2, 2]), [X, u8(3, 4, 3, 3)], V10, id="same_upper"),
    OracleCase(OP, dict(strides=[2]), [i8(1, 3, 9), i8(2, 3, 3), np.int8(5)], V10, id="1d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _u8(*shapes: list[int]) -> list[np.ndarray]:
    return [np.zeros(s, np.uint8) for s in shapes]


SHAPES = [
    shape_case(OP, 10, _u8([1, 4, 7, 7], [6, 4, 3, 3]), {"dilations": [2, 2], "pads": [1, 1, 1, 1]}),
    shape_case(OP, 10, _u8([1, 4, 7, 7], [6, 2, 3, 3]), {"group": 2, "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    shape_case(OP, 10, _u8([2, 3, 10], [4, 3, 4]), {"strides": [3], "pads": [0, 2]}),
]

REJECTED = [
    (shape_case(OP, 10, [[1, 4, 7, 7], [6, 3, 3, 3]]), "convinteger_c2"),
    (shape_case(OP, 10, [[1, 4, 7, 7], [6, 2, 3, 3]], {"group": 4}), "convinteger_c3"),
    (shape_case(OP, 10, [[1, 4, 3, 3], [6, 4, 3, 3]], {"dilations": [2, 2]}), "convinteger_c5"),
    (shape_case(OP, 10, [[1, 4, 7, 7], [6, 4, 3, 3], [2]]), "convinteger_c7"),
    (shape_case(OP, 10, [[1, 4, 7, 7], [6, 4, 3, 3], None, [4]]), "convinteger_c8"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
