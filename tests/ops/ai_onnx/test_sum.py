"""Sum: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

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

OP = "Sum"
f32 = Seeded(1234).f32
X = f32(3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4, 5), f32(3, 4, 5)], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, f32(4, 1), f32(5)], all_since(OP, 8), id="bcast"),
    OracleCase(OP, {}, [X], all_since(OP), id="one"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# multidirectional broadcasting from 8 on; equal shapes before it
SHAPES = [shape_case(OP, opset, shapes) for opset in (8, 13)
          for shapes in ([[2, 3]], [[2, 3], [3], [1, 1]], [[4, 1, 3], [2, 1], [1, 1, 1], [4, 2, 3]], [[0, 3], [1, 3]])]
SHAPES.append(shape_case(OP, 6, [[2, 3], [2, 3], [2, 3]]))

REJECTED = [(shape_case(OP, opset, [[2, 3], [4]]), "sum_c1") for opset in (8, 13)]
REJECTED.append((shape_case(OP, 6, [[2, 3], [3]]), "binding"))


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    n = Sym("N")
    assert symbolic_shape(OP, 13, [[n, 3], [n, 3]]) == ["N", "3"]
