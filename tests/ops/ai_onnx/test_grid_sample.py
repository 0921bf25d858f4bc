"""GridSample: the kernel against onnx.reference and onnxruntime for every mode, padding mode and align_corners,
1-D to 3-D, integer types; shape formulas against onnx; rejected nodes."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "GridSample"
seeded = Seeded(4328)
rng = seeded.rng


def coords(*shape: int) -> np.ndarray:
    """Grid coordinates on an eighth grid in [-1.25, 1.25]: inside the image and just outside it."""
    return (rng.integers(-10, 11, shape) / 8).astype(np.float32)


X2 = seeded.f32(2, 2, 3, 4)
G2 = coords(2, 3, 2, 2)
X1, G1 = seeded.f32(1, 2, 5), coords(1, 4, 1)
X3, G3 = seeded.f32(1, 1, 2, 3, 4), coords(1, 2, 2, 2, 3)
V16_NAME = {"linear": "bilinear", "nearest": "nearest", "cubic": "bicubic"}
PADDINGS = ("zeros", "border", "reflection")


def at_20(attrs: dict[str, object], inputs: list[np.ndarray]) -> OracleCase:
    return OracleCase(OP, attrs, list(inputs), (20,))


def truncated(case: OracleCase, dtype: type[np.integer[Any]]) -> Callable[[], list[np.ndarray]]:
    return lambda: [np.trunc(y).astype(dtype) for y in oracle_outputs(case, 20)]


def kernel_cases() -> list[OracleCase]:
    cases = []
    for mode, padding, corners in itertools.product(("linear", "nearest", "cubic"), PADDINGS, (0, 1)):
        attrs = {"mode": mode, "padding_mode": padding, "align_corners": corners}
        name = f"{mode}_{padding}_{corners}"
        # onnx.reference clamps a cubic coordinate before its taps under border padding (the readings)
        oracle = "ort" if (mode, padding) == ("cubic", "border") else "ref"
        cases.append(OracleCase(OP, attrs, [X2, G2], (20, 22), oracle=oracle, id=name))
        # version 16 names the modes bilinear/bicubic, which onnx.reference does not know: onnxruntime
        cases.append(OracleCase(OP, {**attrs, "mode": V16_NAME[mode]}, [X2, G2], (16,), oracle="ort", id=name))
    for mode, padding in itertools.product(("linear", "nearest", "cubic"), PADDINGS):
        attrs = {"mode": mode, "padding_mode": padding, "align_corners": 0}
        if (mode, padding) != ("cubic", "border"):  # onnxruntime samples only 2-D and 3-D images, cubic only 2-D
            cases.append(OracleCase(OP, attrs, [X1, G1], (20,), id=f"1d_{mode}_{padding}"))
            cases.append(OracleCase(OP, attrs, [X3, G3], (22,), id=f"3d_{mode}_{padding}"))
    cases.append(OracleCase(OP, {"mode": "linear", "padding_mode": "border", "align_corners": 1}, [X3, G3], (20,),
                            oracle="ort", id="3d_ort"))
    cases.append(OracleCase(OP, {}, [X2.astype(np.float16), G2.astype(np.float16)], (16,), oracle="ort", rtol=2e-3,
                            id="fp16"))
    # integers: computed in floating point, truncated toward zero (values stay inside the type here); onnx.reference
    # interpolates integers with integer weights, so the oracle is its float answer, truncated
    ints = np.abs(X2 * 8).astype(np.uint8)
    cases.append(OracleCase(OP, {"mode": "linear"}, [ints, G2], (20,), id="uint8",
                            oracle=truncated(at_20({"mode": "linear"}, [ints.astype(np.float32), G2]), np.uint8)))
    wide = (X2 * 8).astype(np.int32)
    cubic = {"mode": "cubic", "padding_mode": "reflection"}
    cases.append(OracleCase(OP, cubic, [wide, G2], (22,), id="int32",
                            oracle=truncated(at_20(cubic, [wide.astype(np.float32), G2]), np.int32)))
    # a double grid: onnx.reference rounds positions to float32, which a double's tolerance notices
    g64 = G2.astype(np.float64)
    cases.append(OracleCase(OP, {"mode": "linear"}, [X2.astype(np.float64), g64], (20,),
                            oracle=lambda: [oracle_outputs(at_20({"mode": "linear"}, [X2, G2]), 20)[0]
                                            .astype(np.float64)], rtol=1e-5, id="double"))
    return cases


CASES = kernel_cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_cubic_border_clamps_each_tap() -> None:
    """x = 4.2 on a row of 5 (align_corners = 1): the taps 3, 4, 5, 6 read 9, 16, 16, 16, so the value is
    16 - 7 * w(1.2) = 16.672 (PyTorch, onnxruntime); clamping x to 4 first would give 16."""
    x = (np.arange(5, dtype=np.float32) ** 2).reshape(1, 1, 1, 5)
    (y,) = run("ai.onnx", OP, 20, [x, np.array([[[[1.1, 0.0]]]], np.float32)], mode="cubic", padding_mode="border",
               align_corners=1)
    np.testing.assert_allclose(y.reshape(-1), [16.672], rtol=1e-5)


def test_nearest_rounds_half_to_even() -> None:
    x = np.arange(5, dtype=np.float32).reshape(1, 1, 1, 5)
    grid = np.array([[[[-0.75, 0], [-0.25, 0]]]], np.float32)  # x = 0.5 and 1.5 (align_corners = 1)
    (y,) = run("ai.onnx", OP, 16, [x, grid], mode="nearest", align_corners=1)
    np.testing.assert_array_equal(y.reshape(-1), [0, 2])


def test_integer_results_truncate_and_saturate() -> None:
    """uint8: 2.5 truncates to 2; a cubic undershoot below 0 saturates at 0. bool: nonzero is True."""
    x = np.array([[[[0, 5]]]], np.uint8)
    (y,) = run("ai.onnx", OP, 20, [x, np.array([[[[0.0, 0.0]]]], np.float32)], align_corners=1)
    assert y.dtype == np.uint8 and y.reshape(-1).tolist() == [2]
    x = np.array([[[[9, 0, 0, 9, 9]]]], np.uint8)
    (y,) = run("ai.onnx", OP, 20, [x, np.array([[[[-0.25, 0.0]]]], np.float32)], mode="cubic", align_corners=1)
    assert y.reshape(-1).tolist() == [0]
    xb = np.array([[[[True, False]]]])
    (y,) = run("ai.onnx", OP, 20, [xb, np.array([[[[-1.0, 0.0], [0.5, 0.0]]]], np.float32)], align_corners=1)
    assert y.dtype == np.bool_ and y.reshape(-1).tolist() == [True, True]


def test_reflection_of_a_single_pixel() -> None:
    """An axis of length 1 with align_corners = 1 reflects every coordinate onto its one pixel (onnx.reference
    divides by the empty interval and fails)."""
    x = np.full((1, 1, 1, 1), 5.0, np.float32)
    (y,) = run("ai.onnx", OP, 20, [x, np.array([[[[0.3, 0.7]]]], np.float32)], padding_mode="reflection",
               align_corners=1)
    assert y.reshape(-1).tolist() == [5.0]


SHAPES = [
    shape_case(OP, 16, [[2, 3, 4, 5], [2, 6, 7, 2]]),
    shape_case(OP, 20, [[2, 3, 4, 5], [2, 6, 7, 2]], {"mode": "cubic"}),
    shape_case(OP, 20, [[1, 2, 4, 5, 6], [1, 2, 3, 4, 3]]),
    shape_case(OP, 22, [[1, 2, 9], [1, 4, 1]], {"padding_mode": "border"}),
]

REJECTED = [
    (shape_case(OP, 16, [[2, 3, 4, 5], [2, 6, 7, 3]]), "binding"),
    (shape_case(OP, 16, [[2, 3, 4, 5], [1, 6, 7, 2]]), "binding"),
    (shape_case(OP, 16, [[2, 3, 4, 5], [2, 6, 7, 2]], {"mode": "linear"}), "attr_allowed"),
    (shape_case(OP, 20, [[2, 3, 4, 5], [2, 6, 7, 2]], {"mode": "bilinear"}), "attr_allowed"),
    (shape_case(OP, 20, [[2, 3], [2, 0]]), "gridsample_c1"),
    (shape_case(OP, 20, [[2, 3, 4, 5], [2, 6, 2]]), "gridsample_c2"),
    (shape_case(OP, 22, [[2, 3, 4, 5], [2, 6, 7, 3]]), "gridsample_c3"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
