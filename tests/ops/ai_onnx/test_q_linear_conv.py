"""QLinearConv: the kernel against onnx.reference (no ties), onnxruntime (ties with an odd zero point, per-filter
scales, bias) and the registry's example; Conv's shape formula against onnx; rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "QLinearConv"
RAND = Seeded(1234)
V10 = (10,)


def u8(*shape: int) -> np.ndarray:
    return RAND.ints(0, 256, shape, np.uint8)


def f(*values: float, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.asarray(values, np.float32).reshape(shape)


X, W = u8(1, 2, 5, 4), u8(3, 2, 2, 2)


def _args(x: np.ndarray, w: np.ndarray, ws: np.ndarray, wz: np.ndarray, ys: np.ndarray, yz: np.ndarray,
          bias: np.ndarray | None = None, xs: float = 0.02) -> list[np.ndarray | None]:
    return [x, f(xs), np.uint8(120), w, ws, wz, ys, yz, bias]


CASES = [
    OracleCase(OP, {}, _args(X, W, f(0.013), np.uint8(100), f(0.7), np.uint8(128)), V10, id="per_tensor"),
    OracleCase(OP, dict(pads=[1, 1, 0, 1], strides=[2, 1]), _args(X, W, f(0.013), np.uint8(100), f(0.5),
                                                                 np.uint8(7)), V10, oracle="ort", id="pads_odd_zero"),
    OracleCase(OP, {}, _args(X, W, f(0.01, 0.02, 0.03, shape=(3,)), u8(3), f(0.3), np.uint8(9),
                             RAND.ints(-999, 999, (3,), np.int32)), V10, oracle="ort", id="per_filter_bias"),
    # a multiplier of 0.5 * 0.25 / 0.5 = 1/4 puts every sum 2 (mod 4) on a tie; the zero point 5 is odd
    # (small operands near their zero points keep the sums unsaturated)
    OracleCase(OP, dict(group=2), _args(RAND.ints(116, 125, (2, 4, 5, 5), np.uint8), RAND.ints(0, 7, (2, 2, 3, 3),
                                                                                                np.uint8),
                                        f(0.25), np.uint8(3), f(0.5), np.uint8(5), xs=0.5), V10, oracle="ort",
               id="group_ties"),
    # per tensor in mixed ranks ([1] scale, [] zero point and the other way): the one quantization rule
    OracleCase(OP, {}, _args(X, W, f(0.013, shape=(1,)), np.uint8(100), f(0.7), np.array([128], np.uint8)), V10,
               oracle="ort", id="per_tensor_mixed_ranks"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _shapes(x: list[int], w: list[int], ws: list[int] | None = None) -> list[Any]:
    return [np.zeros(x, np.uint8), np.ones([], np.float32), np.zeros([], np.uint8), np.zeros(w, np.uint8),
            np.ones(ws or [], np.float32), np.zeros(ws or [], np.uint8), np.ones([], np.float32),
            np.zeros([], np.uint8)]


SHAPES = [
    shape_case(OP, 10, _shapes([1, 4, 7, 7], [6, 4, 3, 3]), {"dilations": [2, 2], "pads": [1, 1, 1, 1]}),
    shape_case(OP, 10, _shapes([1, 4, 7, 7], [6, 2, 3, 3], [6]), {"group": 2, "strides": [2, 2],
                                                                  "auto_pad": "SAME_UPPER"}),
    shape_case(OP, 10, _shapes([2, 3, 10], [4, 3, 4]), {"strides": [3], "pads": [0, 2]}),
]


def _bad(x: list[int], w: list[int], xs: list[int], ws: list[int], wz: list[int], ys: list[int]) -> Any:
    return shape_case(OP, 10, [x, xs, xs, w, ws, wz, ys, ys])


REJECTED = [
    (_bad([1, 4, 7, 7], [6, 3, 3, 3], [], [], [], []), "qlinearconv_c2"),
    (_bad([1, 4, 7, 7], [6, 4, 3, 3], [2], [], [], []), "qlinearconv_c7"),
    (_bad([1, 4, 7, 7], [6, 4, 3, 3], [], [4], [4], []), "qlinearconv_c8"),
    (_bad([1, 4, 7, 7], [6, 4, 3, 3], [], [6], [], []), "qlinearconv_c8"),
    (_bad([1, 4, 7, 7], [6, 4, 3, 3], [], [], [], [3]), "qlinearconv_c9"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
