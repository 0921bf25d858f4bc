"""DynamicQuantizeLinear: the kernel against onnx.reference (ranges with and without 0, ties, saturation of the zero
point) and the text's formula on an all-zero x (where the runtimes differ), shapes against onnx."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    shape_case,
    shape_tests,
)

OP = "DynamicQuantizeLinear"
f32 = Seeded(1234).f32
ALL = all_since(OP)
ZEROS = np.zeros((2, 3), np.float32)


def _all_zero() -> list[np.ndarray]:
    """The text's y_scale, (max(0, 0) - min(0, 0)) / 255 = 0, with y and y_zero_point 0."""
    scale = (max(0.0, float(ZEROS.max())) - min(0.0, float(ZEROS.min()))) / 255
    return [np.zeros(ZEROS.shape, np.uint8), np.asarray(scale, np.float32), np.asarray(0, np.uint8)]


CASES = [
    OracleCase(OP, {}, [f32(3, 4)], ALL, n_out=3, id="mixed_signs"),
    OracleCase(OP, {}, [np.abs(f32(5)) + 1], ALL, n_out=3, id="positive_only"),
    OracleCase(OP, {}, [-np.abs(f32(2, 2, 3)) - 1], ALL, n_out=3, id="negative_only"),
    OracleCase(OP, {}, [np.array([0, 0.5, 1.5, 2.5, 255], np.float32)], ALL, n_out=3, id="unit_scale_ties"),
    OracleCase(OP, {}, [ZEROS], ALL, n_out=3, oracle=_all_zero, id="all_zero"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 11, [x], n_out=3) for x in ([2, 3, 4], [7], [])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
