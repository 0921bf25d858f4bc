"""Where: the kernel against onnx.reference and onnxruntime (condition, X and Y broadcast together; X and Y of
any type), the shape formula against onnx's shape inference, rejected nodes."""

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
    shape_tests,
    symbolic_shape,
)

OP = "Where"
RAND = Seeded(3300)


def cond(*shape: int) -> np.ndarray:
    return RAND.ints(0, 2, shape, np.int8) == 1


CASES = [
    OracleCase(OP, {}, [cond(3, 4), RAND.f32(3, 4), RAND.f32(3, 4)], all_since(OP), id="same"),
    OracleCase(OP, {}, [cond(2, 1, 4), RAND.f32(3, 1), RAND.f32()], all_since(OP), id="bcast"),
    OracleCase(OP, {}, [cond(4), RAND.f32(3, 1), RAND.f32(2, 1, 1)], all_since(OP), oracle="ort", id="bcast_ort"),
    OracleCase(OP, {}, [np.array(True), RAND.f32(2, 2), RAND.f32(2, 2)], all_since(OP), id="scalar_condition"),
    OracleCase(OP, {}, [cond(2, 3), np.array(["a", "b", "c"], dtype=object), np.array(["x"], dtype=object)],
               all_since(OP), id="string"),
    OracleCase(OP, {}, [cond(3, 4), cond(3, 4), cond(4)], all_since(OP), id="bool"),
]
CASES += [OracleCase(OP, {}, [cond(3, 4), RAND.ints(-50, 50, (3, 4), t), RAND.ints(0, 50, (4,), t)], all_since(OP),
                     id=np.dtype(t).name)
          for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
CASES += [OracleCase(OP, {}, [cond(3, 4), RAND.f32(3, 4).astype(t), RAND.f32(4).astype(t)], all_since(OP),
                     id=np.dtype(t).name) for t in (np.float16, np.float64)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, shapes: list[list[int]]) -> ShapeCase:
    return ShapeCase(OP, opset, [np.zeros(shapes[0], bool), np.zeros(shapes[1], np.float32),
                                 np.zeros(shapes[2], np.float32)])


SHAPES = [_case(opset, s) for opset in all_since(OP)
          for s in ([[2, 3], [2, 3], [2, 3]], [[2, 1, 4], [3, 1], []], [[4], [3, 1], [2, 1, 1]], [[0, 1], [1, 3], [3]])]

REJECTED = [(_case(opset, s), "where_c1") for opset in all_since(OP)
            for s in ([[2, 3], [2], [2, 3]], [[3], [3], [4]], [[2, 1], [1, 3], [1, 4, 1]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    n = Sym("N")
    assert symbolic_shape(OP, 16, [[n, 1], [1, 3], [3]]) == ["N", "3"]
