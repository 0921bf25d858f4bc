"""Max: the kernel against onnx.reference and onnxruntime (variadic; one shape before version 8, numpy
broadcasting from 8; NaN propagates), the shape formulas against onnx's shape inference, rejected nodes."""

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

OP = "Max"
RAND = Seeded(3200)
f32 = RAND.f32
X = f32(3, 4)
NAN = [np.array([np.nan, 1, 2, np.nan], np.float32), np.array([0, np.nan, 3, np.nan], np.float32)]

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4), f32(3, 4)], all_since(OP), id="three"),
    OracleCase(OP, {}, [X], all_since(OP), id="one"),
    OracleCase(OP, {}, [X, f32(4), f32(2, 1, 1)], all_since(OP, 8), id="bcast"),
    OracleCase(OP, {}, [X.astype(np.float16), f32(3, 1).astype(np.float16)], all_since(OP, 8), id="float16"),
    OracleCase(OP, {}, [X.astype(np.float64), f32(3, 4).astype(np.float64)], all_since(OP, 8), oracle="ort",
               id="double_ort"),
    OracleCase(OP, {}, NAN, all_since(OP, 8), oracle="ort", id="nan_ort"),
    OracleCase(OP, {}, NAN, all_since(OP, 8), id="nan"),
]
CASES += [OracleCase(OP, {}, [RAND.ints(-90, 90, (3, 4), t), RAND.ints(-90, 90, (4,), t)], all_since(OP, 12),
                     id=np.dtype(t).name) for t in (np.int8, np.int16, np.int32, np.int64)]
CASES += [OracleCase(OP, {}, [RAND.ints(0, 250, (3, 4), t), RAND.ints(0, 250, (2, 1, 4), t)], all_since(OP, 12),
                     id=np.dtype(t).name) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
CASES += [OracleCase(OP, {}, [RAND.ints(-90, 90, (3, 4), np.int32), RAND.ints(-90, 90, (3, 1), np.int32)],
                     all_since(OP, 12), oracle="ort", id="int32_ort")]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, shapes: list[list[int]], *, inferred: bool = True) -> ShapeCase:
    case = shape_case(OP, opset, shapes)
    if not inferred:  # onnx infers no shape at opset 1
        case.not_inferred_by_onnx = {0: list(shapes[0])}
    return case


SHAPES = [_case(opset, s) for opset in all_since(OP, 8)
          for s in ([[2, 3]], [[2, 3], [3], [1, 1]], [[4, 1, 3], [2, 1], [1, 1, 1]], [[0, 3], [1, 3]])]
SHAPES += [_case(opset, [[2, 3], [2, 3], [2, 3]], inferred=opset > 1) for opset in (1, 6)]

REJECTED = [(shape_case(OP, opset, [[2, 3], [4]]), "max_c1") for opset in all_since(OP, 8)]
REJECTED += [(shape_case(OP, opset, [[2, 3], [3]]), "binding") for opset in (1, 6)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    n = Sym("N")
    assert symbolic_shape(OP, 13, [[n, 3], [1, 3], [3]]) == ["N", "3"]
