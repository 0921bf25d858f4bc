"""Div: the kernel against onnx.reference and onnxruntime (integer division truncates toward zero), the shape
formulas against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Div"
RAND = Seeded(2024)
f32 = RAND.f32
X = f32(3, 4, 5)
A, B = f32(2, 3, 4, 5), f32(3, 4)
NUM = RAND.ints(-50, 50, (3, 4), np.int32)
DEN = RAND.ints(1, 9, (3, 4), np.int32) * np.where(RAND.ints(0, 2, (3, 4), np.int32) == 1, 1, -1).astype(np.int32)
SIGNS = [np.array([7, -7, 7, -7, 6, -6], np.int32), np.array([2, 2, -2, -2, 3, -3], np.int32)]
INT8_EDGE = [np.array([-128, -128, 127, 5], np.int8), np.array([-1, 3, -1, -6], np.int8)]
U8 = [np.array([250, 7, 0, 255], np.uint8), np.array([3, 2, 9, 255], np.uint8)]
BY_ZERO = [np.array([1, -1, 0, 2.5], np.float32), np.array([0, 0, 0, -0.0], np.float32)]

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4, 5)], all_since(OP), id="same"),
    OracleCase(OP, {}, [X, f32(4, 1)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, dict(broadcast=1), [X, f32(4, 5)], all_since(OP, 1, 6), id="legacy_suffix"),
    OracleCase(OP, dict(broadcast=1, axis=1), [A, B], all_since(OP, 1, 6), oracle=lambda: [np.divide(A, B[:, :, None])],
               id="legacy_axis"),
    OracleCase(OP, dict(broadcast=1, axis=-3), [A, B], all_since(OP, 1, 6),
               oracle=lambda: [np.divide(A, B[:, :, None])], id="legacy_negative_axis"),
    OracleCase(OP, {}, [NUM, DEN], all_since(OP, 6), id="int_trunc"),
    OracleCase(OP, {}, SIGNS, all_since(OP, 7), oracle="ort", id="int_signs_ort"),
    OracleCase(OP, {}, INT8_EDGE, (14,), oracle="ort", id="int8_min_over_minus_one"),
    OracleCase(OP, {}, U8, (14,), oracle="ort", id="uint8"),
    OracleCase(OP, {}, BY_ZERO, all_since(OP, 7), oracle="ort", id="float_by_zero"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize("opset", [6, 14])
def test_integer_division_by_zero_is_rejected(opset: int) -> None:
    with pytest.raises(ValueError, match="divisor holds 0"):
        kernel("ai.onnx", OP, opset)(np.array([1, 2], np.int32), np.array([1, 0], np.int32))


# numpy broadcasting from 7 on; before it the legacy broadcast, where onnx infers no shape at opset 1
SHAPES = [shape_case(OP, opset, [a, b]) for opset in (7, 13, 14)
          for a, b in (([2, 3], [2, 3]), ([2, 3, 4], [4]), ([2, 1, 4], [3, 1]), ([], [5]), ([1], [2, 2]))]
SHAPES += [shape_case(OP, opset, shapes, attrs, not_inferred_by_onnx={0: want} if opset == 1 else {})
           for opset in (1, 6) for shapes, attrs, want in (
               ([[2, 3], [2, 3]], {}, [2, 3]),
               ([[2, 3, 4, 5], [4, 5]], {"broadcast": 1}, [2, 3, 4, 5]),
               ([[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}, [2, 3, 4, 5]),
               ([[2, 3, 4, 5], [1, 1]], {"broadcast": 1}, [2, 3, 4, 5]))]

REJECTED = [(shape_case(OP, opset, [[2, 3], [2]]), "div_c3") for opset in (7, 13, 14)]
REJECTED += [(shape_case(OP, opset, [[2, 3], [3]]), "div_c1") for opset in (1, 6)]
REJECTED += [(shape_case(OP, opset, [[2, 3, 4], [3]], {"broadcast": 1}), "div_c2") for opset in (1, 6)]
REJECTED += [(shape_case(OP, 6, [[2, 3, 4], [3, 4]], {"broadcast": 1, "axis": 2}), "div_c2")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 14, [[Sym("N"), 3], [3]]) == ["N", "3"]
