"""Mean: the kernel against onnx.reference and onnxruntime (variadic; one shape before version 8, numpy
broadcasting from 8, where onnx.reference cannot broadcast and onnxruntime is the oracle), the shape
formulas against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Mean"
RAND = Seeded(3202)
f32 = RAND.f32
X = f32(3, 4)

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4), f32(3, 4)], all_since(OP), id="three"),
    OracleCase(OP, {}, [X], all_since(OP), id="one"),
    OracleCase(OP, {}, [X.astype(np.float64), f32(3, 4).astype(np.float64)], all_since(OP), id="double"),
    OracleCase(OP, {}, [X, f32(3, 4), f32(3, 4)], all_since(OP, 7), oracle="ort", id="three_ort"),
    OracleCase(OP, {}, [X, f32(4), f32(2, 1, 1)], all_since(OP, 8), oracle="ort", id="bcast_ort"),
    OracleCase(OP, {}, [X.astype(np.float16), f32(3, 1).astype(np.float16), f32(4).astype(np.float16)],
               all_since(OP, 8), oracle="ort", rtol=2e-3, id="float16_bcast_ort"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, shapes: list[list[int]], *, inferred: bool = True) -> ShapeCase:
    case = shape_case(OP, opset, shapes)
    if not inferred:  # onnx infers no shape at opset 1
        case.not_inferred_by_onnx = {0: list(shapes[0])}
    return case


SHAPES = [_case(opset, s) for opset in all_since(OP, 8)
          for s in ([[2, 3]], [[2, 3], [3], [1, 1]], [[4, 1, 3], [2, 1], [1, 1, 1]], [[0, 3], [1, 3]])]
SHAPES += [_case(opset, [[2, 3], [2, 3], [2, 3]], inferred=opset > 1) for opset in (1, 6)]

REJECTED = [(shape_case(OP, opset, [[2, 3], [4]]), "mean_c1") for opset in all_since(OP, 8)]
REJECTED += [(shape_case(OP, opset, [[2, 3], [3]]), "binding") for opset in (1, 6)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    n = Sym("N")
    assert symbolic_shape(OP, 13, [[n, 3], [1, 3], [3]]) == ["N", "3"]
