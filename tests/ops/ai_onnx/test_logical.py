"""And, Or, Xor, one table: each kernel against onnx.reference and onnxruntime (the logical operation of bools, ties
included), opset 1's legacy broadcasting against numpy, the shape formulas against onnx's shape inference, rejected
nodes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

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

OPS = ("And", "Or", "Xor")
NUMPY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor}
SEEDS = {"And": 3000, "Or": 3001, "Xor": 3002}


def cases(op: str) -> list[OracleCase]:
    rand = Seeded(SEEDS[op])

    def data(*shape: int) -> np.ndarray:
        return rand.ints(0, 2, shape, np.int8) == 1

    def tied(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """y with x's value at about half of the positions, so that ties take part."""
        return np.where(rand.ints(0, 2, y.shape, np.int8) == 1, x, y)

    x = data(3, 4, 5)
    a, b, s = data(2, 3, 4, 5), data(3, 4), data(4, 5)
    fn = NUMPY[op]
    return [
        OracleCase(op, {}, [x, tied(x, data(3, 4, 5))], all_since(op), id="same"),
        OracleCase(op, {}, [x, data(4, 1)], all_since(op, 7), id="bcast"),
        OracleCase(op, {}, [x, tied(x, data(3, 4, 5))], all_since(op, 7), oracle="ort", id="same_ort"),
        OracleCase(op, dict(broadcast=1), [x, s], (1,), oracle=lambda: [fn(x, s)], id="legacy_suffix"),
        OracleCase(op, dict(broadcast=1, axis=1), [a, b], (1,), oracle=lambda: [fn(a, b[:, :, None])],
                   id="legacy_axis"),
    ]


CASES = [c for op in OPS for c in cases(op)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OPS, CASES)


def _case(op: str, opset: int, shapes: list[list[int]], attrs: dict[str, object] | None = None) -> ShapeCase:
    return ShapeCase(op, opset, [np.zeros(s, np.bool_) for s in shapes], dict(attrs or {}))


# numpy broadcasting from 7 on; opset 1's legacy broadcast (the output has A's shape)
SHAPES = [_case(op, opset, [a, b]) for op in OPS for opset in all_since(op, 7)
          for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]))]
SHAPES += [_case(op, 1, shapes, attrs) for op in OPS for shapes, attrs in (
    ([[2, 3], [2, 3]], {}),
    ([[2, 3, 4, 5], [4, 5]], {"broadcast": 1}),
    ([[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}),
    ([[2, 3, 4, 5], []], {"broadcast": 1}))]

REJECTED = [(_case(op, opset, [[2, 3], [2]]), f"{op.lower()}_c3") for op in OPS for opset in all_since(op, 7)]
REJECTED += [(c, f"{op.lower()}_{check}") for op in OPS for c, check in (
    (_case(op, 1, [[2, 3], [3]]), "c1"), (_case(op, 1, [[2, 3, 4], [3]], {"broadcast": 1}), "c2"))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("op", OPS)
def test_symbolic_batch_dim(op: str) -> None:
    assert symbolic_shape(op, all_since(op)[-1], [[Sym("N"), 1], [4]]) == ["N", "4"]
