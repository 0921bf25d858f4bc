"""Equal: the kernel against onnx.reference and onnxruntime (a bool result), the shape formulas
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

OP = "Equal"
RAND = Seeded(3003)


def data(*shape: int) -> np.ndarray:
    """small int32 values (ties are frequent)."""
    return RAND.ints(-3, 4, shape, np.int32)


def tied(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y with x's value at about half of the positions, so that ties take part."""
    return np.where(RAND.ints(0, 2, y.shape, np.int8) == 1, x, y)


X = data(3, 4, 5)
A, B, S = data(2, 3, 4, 5), data(3, 4), data(4, 5)
F = (X / 4).astype(np.float32)

CASES = [
    OracleCase(OP, {}, [X, tied(X, data(3, 4, 5))], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, data(4, 1)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, {}, [X, tied(X, data(3, 4, 5))], all_since(OP, 7), oracle="ort", id="same_ort"),
    OracleCase(OP, dict(broadcast=1), [X, S], (1,), oracle=lambda: [np.equal(X, S)], id="legacy_suffix"),
    OracleCase(OP, dict(broadcast=1, axis=1), [A, B], (1,), oracle=lambda: [np.equal(A, B[:, :, None])],
               id="legacy_axis"),
    OracleCase(OP, {}, [X > 0, data(4, 1) > 0], all_since(OP, 7), id="bool"),
    OracleCase(OP, {}, [X.astype(np.int64), tied(X, data(3, 4, 5)).astype(np.int64)], all_since(OP), id="int64"),
    OracleCase(OP, {}, [F, tied(F, (data(3, 4, 5) / 4).astype(np.float32))], all_since(OP, 11), id="float"),
    OracleCase(OP, {}, [X.astype(np.uint8), data(5).astype(np.uint8)], all_since(OP, 11), oracle="ort", id="uint8_ort"),
    OracleCase(OP, {}, [np.array(["a", "bc", ""], dtype=object), np.array(["a", "b", ""], dtype=object)], (19,),
               id="string"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, shapes: list[list[int]], attrs: dict[str, object] | None = None) -> ShapeCase:
    return ShapeCase(OP, opset, [np.zeros(s, np.int32) for s in shapes], dict(attrs or {}))


# numpy broadcasting from 7 on; opset 1's legacy broadcast (the output has A's shape)
SHAPES = [_case(opset, [a, b]) for opset in all_since(OP, 7)
          for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]))]
SHAPES += [_case(1, shapes, attrs) for shapes, attrs in (
    ([[2, 3], [2, 3]], {}),
    ([[2, 3, 4, 5], [4, 5]], {"broadcast": 1}),
    ([[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}),
    ([[2, 3, 4, 5], []], {"broadcast": 1}))]

REJECTED = [(_case(opset, [[2, 3], [2]]), "equal_c3") for opset in all_since(OP, 7)]
REJECTED += [(_case(1, [[2, 3], [3]]), "equal_c1"), (_case(1, [[2, 3, 4], [3]], {"broadcast": 1}), "equal_c2")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, all_since(OP)[-1], [[Sym("N"), 1], [4]]) == ["N", "4"]
