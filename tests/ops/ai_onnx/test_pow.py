"""Pow: the kernel against onnx.reference and onnxruntime (mixed base and exponent types from version 12,
integer results truncated toward zero), the shape formulas against onnx's shape inference, rejected nodes."""

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

OP = "Pow"
RAND = Seeded(2026)
POS = np.abs(RAND.f32(3, 4, 5)) + np.float32(0.1)  # positive bases: real powers for any exponent
A, B = np.abs(RAND.f32(2, 3, 4, 5)) + np.float32(0.1), RAND.f32(3, 4)
EXP = RAND.f32(3, 4, 5)
SUFFIX = RAND.f32(4, 5)
INT_BASE = RAND.ints(-6, 7, (3, 4), np.int32)
INT_EXP = RAND.ints(0, 6, (4,), np.int64)
NEG_EXP = [np.array([1, -1, -1, 2, -3, 5], np.int64), np.array([-3, -3, -2, -1, -1, 0], np.int64)]
FRAC_EXP = [np.array([2, 3, 4, 9, 5, -2], np.int32), np.array([0.5, 1.5, -0.5, 0.5, 2.25, 3], np.float32)]
OVERFLOW = [np.array([2, 3, -3, 10], np.int32), np.array([31, 21, 21, 12], np.int32)]


def _wrapped_int32_powers() -> list[np.ndarray]:
    """Python's exact integer powers reduced to int32 two's complement: the registry's overflow reading."""
    exact = [int(x) ** int(y) for x, y in zip(*OVERFLOW, strict=True)]
    return [np.array([(v + 2**31) % 2**32 - 2**31 for v in exact], np.int32)]


CASES = [
    OracleCase(OP, {}, [POS, EXP], all_since(OP), id="same"),
    OracleCase(OP, {}, [POS, RAND.f32(4, 1)], all_since(OP, 7), id="bcast"),
    OracleCase(OP, dict(broadcast=1), [POS, SUFFIX], (1,), oracle=lambda: [np.power(POS, SUFFIX)],
               id="legacy_suffix"),  # onnx.reference's Pow takes no broadcast attribute
    OracleCase(OP, dict(broadcast=1, axis=1), [A, B], (1,), oracle=lambda: [np.power(A, B[:, :, None])],
               id="legacy_axis"),
    OracleCase(OP, {}, [RAND.f32(2, 3), np.array([2, -1, 0], np.int64)], all_since(OP, 12), id="float_int_exponent"),
    OracleCase(OP, {}, [RAND.f32(2, 3), np.array([2, 3, 0], np.uint8)], all_since(OP, 12), id="float_uint8_exponent"),
    OracleCase(OP, {}, [POS.astype(np.float16), EXP], all_since(OP, 12), rtol=2e-3, id="float16_float_exponent"),
    OracleCase(OP, {}, [INT_BASE, INT_EXP], all_since(OP, 12), id="int_int"),
    OracleCase(OP, {}, [INT_BASE.astype(np.int64), INT_EXP.astype(np.int32)], all_since(OP, 12), oracle="ort",
               id="int64_int32_ort"),
    OracleCase(OP, {}, NEG_EXP, all_since(OP, 12), oracle="ort", id="int_negative_exponent"),
    OracleCase(OP, {}, FRAC_EXP, all_since(OP, 12), id="int_float_exponent"),
    OracleCase(OP, {}, FRAC_EXP, all_since(OP, 12), oracle="ort", id="int_float_exponent_ort"),
    OracleCase(OP, {}, [np.array([-8.0, 0.0, -0.0], np.float32), np.array([0.5, -1, -1], np.float32)],
               all_since(OP, 7), oracle="ort", id="float_nan_and_inf"),
    OracleCase(OP, {}, OVERFLOW, all_since(OP, 12), oracle=_wrapped_int32_powers, id="int32_overflow_wraps"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("x", "y"), [
    (np.array([0, 2], np.int32), np.array([-1, 1], np.int32)),
    (np.array([0], np.int64), np.array([-0.5], np.float32)),
    (np.array([-8, 4], np.int32), np.array([0.5, 0.5], np.float32)),
], ids=["zero_to_negative_int", "zero_to_negative_float", "negative_to_fraction"])
def test_powers_without_an_integer_value_are_rejected(x: np.ndarray, y: np.ndarray) -> None:
    with pytest.raises(ValueError, match="no integer value"):
        kernel("ai.onnx", OP, 15)(x, y)


# numpy broadcasting from 7 on (the exponent's type may differ from 12); opset 1's legacy broadcast
SHAPES = [shape_case(OP, opset, [a, b]) for opset in (7, 12, 15)
          for a, b in (([2, 3], [2, 3]), ([2, 3, 4], [4]), ([2, 1, 4], [3, 1]), ([], [5]), ([1], [2, 2]))]
SHAPES += [shape_case(OP, 1, shapes, attrs) for shapes, attrs in (
    ([[2, 3], [2, 3]], {}),
    ([[2, 3, 4, 5], [4, 5]], {"broadcast": 1}),
    ([[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}),
    ([[2, 3, 4, 5], [1]], {"broadcast": 1}))]

REJECTED = [(shape_case(OP, opset, [[2, 3], [2]]), "pow_c3") for opset in (7, 12, 15)]
REJECTED += [(shape_case(OP, 1, [[2, 3], [3]]), "pow_c1"),
             (shape_case(OP, 1, [[2, 3, 4], [3]], {"broadcast": 1}), "pow_c2")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 15, [[Sym("N"), 3], []]) == ["N", "3"]
