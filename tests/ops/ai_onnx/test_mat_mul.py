"""MatMul: the kernel against onnx.reference (1-D promotion, batch broadcasting, integers), the shape formula
against onnx, rejected nodes, symbolic batch dims."""

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

OP = "MatMul"
RAND = Seeded(1234)
f32 = RAND.f32

CASES = [
    OracleCase(OP, {}, [f32(3, 4), f32(4, 5)], all_since(OP), id="2d"),
    OracleCase(OP, {}, [f32(4), f32(4)], all_since(OP), id="vec_vec"),
    OracleCase(OP, {}, [f32(4), f32(2, 4, 3)], all_since(OP), id="vec_batch"),
    OracleCase(OP, {}, [f32(2, 3, 4), f32(4)], all_since(OP), id="batch_vec"),
    OracleCase(OP, {}, [f32(2, 1, 3, 4), f32(5, 4, 2)], all_since(OP), id="broadcast"),
    OracleCase(OP, {}, [f32(3, 4).astype(np.float16), f32(4, 2).astype(np.float16)], all_since(OP), id="half",
               rtol=2e-3),
    OracleCase(OP, {}, [RAND.ints(-9, 9, (2, 3, 4), np.int32), RAND.ints(-9, 9, (4, 2), np.int32)], all_since(OP, 9),
               id="int32"),
    OracleCase(OP, {}, [RAND.ints(0, 9, (3, 4), np.uint64), RAND.ints(0, 9, (4, 2), np.uint64)], all_since(OP, 9),
               id="uint64"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, shapes) for opset in all_since(OP) for shapes in (
    [[3, 4], [4, 5]], [[4], [4]], [[4], [2, 4, 3]], [[2, 3, 4], [4]], [[2, 1, 3, 4], [5, 4, 2]],
    [[3, 1, 2], [2, 6]], [[1, 3, 4], [7, 1, 4, 2]])]

REJECTED = [
    (shape_case(OP, 13, [[], [3]]), "matmul_c1"),
    (shape_case(OP, 13, [[2, 3], [4, 5]]), "matmul_c2"),
    (shape_case(OP, 13, [[2, 3], [2]]), "matmul_c2"),
    (shape_case(OP, 9, [[4], [3, 5]]), "matmul_c2"),
    (shape_case(OP, 1, [[2, 2, 3], [3, 3, 4]]), "matmul_c3"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dims_broadcast() -> None:
    shape = symbolic_shape(OP, 13, [[Sym("B"), 1, 3, 4], [5, 4, 2]])
    assert shape == ["B", "5", "3", "2"]
