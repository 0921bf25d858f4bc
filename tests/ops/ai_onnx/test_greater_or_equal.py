"""GreaterOrEqual: the kernel against onnx.reference and onnxruntime (a bool result), the shape formulas
against onnx's shape inference, rejected nodes."""

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

OP = "GreaterOrEqual"
RAND = Seeded(3006)


def data(*shape: int) -> np.ndarray:
    """float32 values on a quarter grid (ties are exact)."""
    return (RAND.ints(-8, 9, shape, np.int32) / 4).astype(np.float32)


def tied(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y with x's value at about half of the positions, so that ties take part."""
    return np.where(RAND.ints(0, 2, y.shape, np.int8) == 1, x, y)


X = data(3, 4, 5)
I8, U64 = RAND.ints(-100, 100, (3, 4), np.int8), RAND.ints(0, 9, (3, 4), np.uint64)

CASES = [
    OracleCase(OP, {}, [X, tied(X, data(3, 4, 5))], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, data(4, 1)], all_since(OP), id="bcast"),
    OracleCase(OP, {}, [X, tied(X, data(3, 4, 5))], all_since(OP), oracle="ort", id="same_ort"),
    OracleCase(OP, {}, [X.astype(np.float16), tied(X, data(3, 4, 5)).astype(np.float16)], all_since(OP), id="float16"),
    OracleCase(OP, {}, [I8, tied(I8, RAND.ints(-100, 100, (3, 4), np.int8))],
               all_since(OP), oracle="ort", id="int8_ort"),
    OracleCase(OP, {}, [U64, tied(U64, RAND.ints(0, 9, (3, 4), np.uint64))],
               all_since(OP), id="uint64"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, shapes: list[list[int]]) -> ShapeCase:
    return ShapeCase(OP, opset, [np.zeros(s, np.float32) for s in shapes])


SHAPES = [_case(opset, [a, b]) for opset in all_since(OP)
          for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]))]

REJECTED = [(_case(opset, [[2, 3], [2]]), "greaterorequal_c1") for opset in all_since(OP)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, all_since(OP)[-1], [[Sym("N"), 1], [4]]) == ["N", "4"]
