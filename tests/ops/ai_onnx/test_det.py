"""Det: the kernel against onnx.reference (2-D, batched) and a float64 determinant (half precision), shapes
against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Det"
f32 = Seeded(1234).f32
HALF = f32(2, 3, 3).astype(np.float16)

CASES = [
    OracleCase(OP, {}, [f32(3, 3)], all_since(OP), id="matrix"),
    OracleCase(OP, {}, [f32(2, 3, 4, 4)], all_since(OP), id="batch"),
    OracleCase(OP, {}, [f32(5, 1, 1)], all_since(OP), id="one_by_one"),
    OracleCase(OP, {}, [f32(2, 2, 2).astype(np.float64)], all_since(OP), id="double"),
    # onnx.reference and onnxruntime have no float16 Det: the float64 determinant, rounded to float16
    OracleCase(OP, {}, [HALF], all_since(OP), rtol=1e-2, id="half",
               oracle=lambda: [np.linalg.det(HALF.astype(np.float64)).astype(np.float16)]),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [shape]) for opset in all_since(OP) for shape in ([3, 3], [2, 4, 4], [2, 3, 1, 1])]

REJECTED = [
    (shape_case(OP, 11, [[2, 3]]), "det_c1"),
    (shape_case(OP, 22, [[4, 2, 3]]), "det_c1"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch() -> None:
    assert symbolic_shape(OP, 22, [[Sym("N"), 3, 3]]) == ["N"]
