"""ArgMax: the kernel against onnx.reference, the shape formula against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "ArgMax"
data = Seeded(4201)
f32 = data.f32
TIES = np.array([[1, 3, 3, 0], [2, 2, 2, 2], [0, 1, 0, 1]], np.float32)  # the max repeats in every row

CASES = [
    OracleCase(OP, {}, [f32(3, 4, 2)], all_since(OP), id="default_axis"),
    OracleCase(OP, dict(axis=-1, keepdims=0), [f32(3, 4, 2)], all_since(OP), id="negative_axis"),
    OracleCase(OP, dict(axis=1), [TIES], all_since(OP), id="ties_first"),
    OracleCase(OP, dict(axis=1, select_last_index=1), [TIES], all_since(OP, 12), id="ties_last"),
    OracleCase(OP, dict(axis=0, select_last_index=1, keepdims=0), [TIES], all_since(OP, 12), id="ties_last_axis0"),
    OracleCase(OP, dict(axis=1), [data.ints(-3, 3, (4, 5), np.int8)], all_since(OP), id="int8"),
    OracleCase(OP, dict(axis=1, keepdims=0), [np.zeros((0, 3), np.float32)], all_since(OP), id="empty_other_axis"),
    OracleCase(OP, dict(axis=0), [data.f32(5, 3).astype(np.float16)], all_since(OP, 11), oracle="ort",
               id="float16_ort"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_an_empty_axis_is_refused_by_the_kernel() -> None:
    with pytest.raises(ValueError, match="empty"):
        run("ai.onnx", OP, 13, [np.zeros((2, 0), np.float32)], axis=1)


SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in all_since(OP)
          for attrs in ({}, {"axis": 1}, {"axis": -1, "keepdims": 0}, {"axis": 0, "keepdims": 0})]
SHAPES += [shape_case(OP, 12, [[5]], {"axis": 0, "keepdims": 0, "select_last_index": 1})]

REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axis": axis}), "argmax_c1") for opset in all_since(OP)
            for axis in (2, -3)]
REJECTED += [(shape_case(OP, 13, [[]], {"axis": 0}), "argmax_c1"),
             (shape_case(OP, 13, [[2, 0]], {"axis": 1}), "argmax_c2")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 3, 4]], {"axis": -1, "keepdims": 0}) == ["N", "3"]
