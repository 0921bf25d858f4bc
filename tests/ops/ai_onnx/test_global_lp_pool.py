"""GlobalLpPool: the kernel against onnxruntime and onnx.reference's LpPool over the whole image, the shape formula
against onnx's shape inference (onnx.reference has no GlobalLpPool)."""

from __future__ import annotations

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

OP = "GlobalLpPool"
f32 = Seeded(4322).f32
X = f32(2, 3, 4, 5)
X1D = f32(1, 2, 7)
X16 = X.astype(np.float16)


def whole_image_lp_pool(x: np.ndarray, p: int) -> list[np.ndarray]:
    """onnx.reference's LpPool with one window covering all of the spatial axes."""
    return oracle_outputs(OracleCase("LpPool", {"kernel_shape": list(x.shape[2:]), "p": p}, [x], (18,)), 18)


CASES = [
    OracleCase(OP, {}, [X], (2,), oracle="ort", id="p2"),
    OracleCase(OP, {"p": 3}, [X], (2,), oracle="ort", id="p3"),
    OracleCase(OP, {"p": 1}, [X1D], (2,), oracle="ort", id="p1_1d"),
    # onnxruntime implements only version 2; versions 1 and 22 are checked against LpPool over the whole image
    OracleCase(OP, {"p": 2.0}, [X], (1,), oracle=lambda: whole_image_lp_pool(X, 2), id="p2_v1"),
    OracleCase(OP, {"p": 3.0}, [X1D], (1,), oracle=lambda: whole_image_lp_pool(X1D, 3), id="p3_v1"),
    OracleCase(OP, {"p": 3}, [X], (22,), oracle=lambda: whole_image_lp_pool(X, 3), id="p3_v22"),
    OracleCase(OP, {}, [X1D], (22,), oracle=lambda: whole_image_lp_pool(X1D, 2), id="p2_v22"),
    # (onnxruntime's opset-2 model of a float16 input does not load: a Cast it inserts is invalid there)
    OracleCase(OP, {}, [X16], (22,), oracle=lambda: whole_image_lp_pool(X16, 2), rtol=2e-3, id="fp16_v22"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_fractional_p_at_version_1() -> None:
    """Version 1 takes a float p: 1.5 over [3, 4] gives (3^1.5 + 4^1.5)^(1/1.5)."""
    (y,) = run("ai.onnx", OP, 1, [np.array([[[3.0, -4.0]]], np.float32)], p=1.5)
    assert y.shape == (1, 1, 1)
    np.testing.assert_allclose(y.reshape(-1), [(3 ** 1.5 + 4 ** 1.5) ** (1 / 1.5)], rtol=1e-6)


SHAPES = [
    shape_case(OP, 2, [[2, 3, 4, 5]]),
    shape_case(OP, 2, [[1, 2, 3, 4, 5]], {"p": 3}),
    shape_case(OP, 22, [[2, 3, 7]]),
    # onnx infers no shape for version 1: the formula's own value is stated
    shape_case(OP, 1, [[2, 3, 4, 5]], not_inferred_by_onnx={0: [2, 3, 1, 1]}),
]

REJECTED = [
    (shape_case(OP, 2, [[2, 3]]), "globallppool_c1"),
    (shape_case(OP, 22, [[2, 3, 4]], {"p": 0}), "attr_range"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
