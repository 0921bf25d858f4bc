"""OneHot: the kernel against onnxruntime (onnx.reference fails on these nodes), opset 9's all-off negative indices
against a hand-computed oracle, the shape formula against onnx, rejected axes and depths."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "OneHot"
IDX = np.array([[0, 2, 5], [1, -1, -4]], np.int64)  # 5 and -4 lie outside [-3, 2]
DEPTH = np.array(3, np.int64)
VALUES = np.array([-1.0, 7.0], np.float32)


def _opset_9_axis_1() -> list[np.ndarray]:
    """axis 1 on indices [2, 3]: out[i, c, j] = on where IDX[i, j] == c; negative indices match nothing at opset 9."""
    out = np.full((2, 3, 3), -1.0, np.float32)
    for i in range(2):
        for j in range(3):
            if 0 <= IDX[i, j] < 3:
                out[i, IDX[i, j], j] = 7.0
    return [out]


CASES = [
    OracleCase(OP, {}, [np.abs(IDX) % 4, DEPTH, VALUES], all_since(OP), oracle="ort", id="last_axis"),
    OracleCase(OP, dict(axis=0), [IDX, DEPTH, VALUES], all_since(OP, 11), oracle="ort", id="wrap_axis0"),
    OracleCase(OP, dict(axis=-2), [np.array([-1.5, 1.75, 2.25], np.float32), np.array([3.9], np.float32),
                                   np.array([0, 1], np.float32)], all_since(OP, 11), oracle="ort", id="float_cast"),
    OracleCase(OP, dict(axis=1), [IDX, DEPTH, VALUES], (9,), oracle=_opset_9_axis_1, id="v9_negative_off"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [indices, depth, [2]], attrs) for v in (9, 11, 28)
          for indices, depth, attrs in (([2, 3], np.array(4, np.int64), {}), ([2, 3], i64(5), {"axis": 0}),
                                        ([4], np.array(2, np.int64), {"axis": -2}), ([1], i64(3), {}),
                                        ([2, 3], np.array(3.7, np.float32), {"axis": 1}))]
REJECTED = [
    (shape_case(OP, 11, [[2, 3], np.array(3, np.int64), [2]], {"axis": 3}), "onehot_c1"),
    (shape_case(OP, 11, [[2, 3], np.array(3, np.int64), [2]], {"axis": -4}), "onehot_c1"),
    (shape_case(OP, 9, [[2], i64(3, 4), [2]]), "onehot_c2"),
    (shape_case(OP, 11, [[2], np.array(-2, np.int64), [2]]), "onehot_c3"),
    (shape_case(OP, 11, [[2], np.array(3, np.int64), [3]]), "binding"),
    (shape_case(OP, 11, [[], np.array(3, np.int64), [2]]), "onehot_c4"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch() -> None:
    assert symbolic_shape(OP, 11, [[Sym("N"), 3], [], [2]], {"axis": 1}, {"depth": [10]}) == ["N", "10", "3"]
