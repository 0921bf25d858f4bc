"""Sub: the kernel against onnx.reference and onnxruntime, the shape formulas against onnx's shape inference,
rejected nodes."""

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

OP = "Sub"
RAND = Seeded(2025)
f32 = RAND.f32
X = f32(3, 4, 5)
A, B = f32(2, 3, 4, 5), f32(3, 4)
WRAP = [np.array([0, 5, 200, 3], np.uint8), np.array([1, 3, 255, 3], np.uint8)]
INT16 = [np.array([-32768, 32767, 5], np.int16), np.array([1, -1, 9], np.int16)]

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4, 5)], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, f32(4, 1)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, {}, [f32(), f32(2, 3)], all_since(OP, 7), id="scalar_first"),
    OracleCase(OP, dict(broadcast=1), [X, f32(4, 5)], all_since(OP, 1, 6), id="legacy_suffix"),
    OracleCase(OP, dict(broadcast=1, axis=1), [A, B], all_since(OP, 1, 6),
               oracle=lambda: [np.subtract(A, B[:, :, None])], id="legacy_axis"),
    OracleCase(OP, {}, [RAND.ints(-9, 9, (3, 4), np.int64), RAND.ints(-9, 9, (4,), np.int64)], all_since(OP, 7),
               id="int64"),
    OracleCase(OP, {}, WRAP, (14,), oracle="ort", id="uint8_wraps"),
    OracleCase(OP, {}, INT16, (14,), oracle="ort", id="int16_wraps"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# numpy broadcasting from 7 on; before it the legacy broadcast, where onnx infers no shape at opset 1
SHAPES = [shape_case(OP, opset, [a, b]) for opset in (7, 13, 14)
          for a, b in (([2, 3], [2, 3]), ([2, 3, 4], [4]), ([2, 1, 4], [3, 1]), ([], [5]), ([1], [2, 2]))]
SHAPES += [shape_case(OP, opset, shapes, attrs, not_inferred_by_onnx={0: want} if opset == 1 else {})
           for opset in (1, 6) for shapes, attrs, want in (
               ([[2, 3], [2, 3]], {}, [2, 3]),
               ([[2, 3, 4, 5], [4, 5]], {"broadcast": 1}, [2, 3, 4, 5]),
               ([[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}, [2, 3, 4, 5]),
               ([[2, 3, 4, 5], []], {"broadcast": 1}, [2, 3, 4, 5]))]

REJECTED = [(shape_case(OP, opset, [[2, 3], [2]]), "sub_c3") for opset in (7, 13, 14)]
REJECTED += [(shape_case(OP, opset, [[2, 3], [3]]), "sub_c1") for opset in (1, 6)]
REJECTED += [(shape_case(OP, opset, [[2, 3, 4], [3]], {"broadcast": 1}), "sub_c2") for opset in (1, 6)]
REJECTED += [(shape_case(OP, 6, [[2, 3], [2, 3, 1]], {"broadcast": 1}), "sub_c2")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 14, [[Sym("N"), 1, 4], [3, 1]]) == ["N", "3", "4"]
