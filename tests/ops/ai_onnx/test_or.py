"""Or: the kernel against onnx.reference and onnxruntime (logical or of bools), the shape formulas
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

OP = "Or"
RAND = Seeded(3001)


def data(*shape: int) -> np.ndarray:
    """random bools."""
    return RAND.ints(0, 2, shape, np.int8) == 1


def tied(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y with x's value at about half of the positions, so that ties take part."""
    return np.where(RAND.ints(0, 2, y.shape, np.int8) == 1, x, y)


X = data(3, 4, 5)
A, B, S = data(2, 3, 4, 5), data(3, 4), data(4, 5)

CASES = [
    OracleCase(OP, {}, [X, tied(X, data(3, 4, 5))], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, data(4, 1)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, {}, [X, tied(X, data(3, 4, 5))], all_since(OP, 7), oracle="ort", id="same_ort"),
    OracleCase(OP, dict(broadcast=1), [X, S], (1,), oracle=lambda: [np.logical_or(X, S)], id="legacy_suffix"),
    OracleCase(OP, dict(broadcast=1, axis=1), [A, B], (1,), oracle=lambda: [np.logical_or(A, B[:, :, None])],
               id="legacy_axis"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, shapes: list[list[int]], attrs: dict[str, object] | None = None) -> ShapeCase:
    return ShapeCase(OP, opset, [np.zeros(s, np.bool_) for s in shapes], dict(attrs or {}))


# numpy broadcasting from 7 on; opset 1's legacy broadcast (the output has A's shape)
SHAPES = [_case(opset, [a, b]) for opset in all_since(OP, 7)
          for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]))]
SHAPES += [_case(1, shapes, attrs) for shapes, attrs in (
    ([[2, 3], [2, 3]], {}),
    ([[2, 3, 4, 5], [4, 5]], {"broadcast": 1}),
    ([[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}),
    ([[2, 3, 4, 5], []], {"broadcast": 1}))]

REJECTED = [(_case(opset, [[2, 3], [2]]), "or_c3") for opset in all_since(OP, 7)]
REJECTED += [(_case(1, [[2, 3], [3]]), "or_c1"), (_case(1, [[2, 3, 4], [3]], {"broadcast": 1}), "or_c2")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, all_since(OP)[-1], [[Sym("N"), 1], [4]]) == ["N", "4"]
