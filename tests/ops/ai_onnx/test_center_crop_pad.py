"""CenterCropPad: the kernel against onnx.reference (onnxruntime for int32 sizes, which the reference runs
too but onnxruntime's function expansion does not), the data-dependent shape formula against onnx, rejected
nodes."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "CenterCropPad"
X = Seeded(1234).f32(5, 4, 3)

CASES = [
    OracleCase(OP, {}, [X, i64(3, 7, 3)], all_since(OP), id="crop_pad_keep"),
    OracleCase(OP, dict(axes=[-1, 0]), [X, i64(6, 2)], all_since(OP), id="axes"),
    OracleCase(OP, dict(axes=[1]), [X, i64(0)], all_since(OP), id="to_zero"),
    OracleCase(OP, {}, [X, i64(4, 5, 2)], all_since(OP), oracle="ort", id="odd_differences_ort"),
    OracleCase(OP, dict(axes=[0, 2]), [X > 0, np.array([2, 6], np.int32)], all_since(OP), id="bool_int32_sizes"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 18, [[5, 4, 3], sizes], attrs) for sizes, attrs in (
    (i64(3, 7, 3), {}), (i64(6, 2), {"axes": [-1, 0]}), (i64(0), {"axes": [1]}),
    (np.array([2, 9], np.int32), {"axes": [2, 1]}))]

REJECTED = [(shape_case(OP, 18, [[5, 4, 3], sizes], attrs), check) for sizes, attrs, check in (
    (i64(1), {"axes": [3]}, "centercroppad_c1"),
    (i64(1, 2), {"axes": [1, -2]}, "centercroppad_c2"),
    (i64(1, 2), {}, "centercroppad_c3"),
    (i64(1, 2), {"axes": [0]}, "centercroppad_c3"),
    (i64(1, -1, 3), {}, "centercroppad_c4"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 18, [[Sym("N"), 4, 3], [2]], {"axes": [2, 1]}, {"shape": [8, 1]}) == ["N", "1", "8"]
