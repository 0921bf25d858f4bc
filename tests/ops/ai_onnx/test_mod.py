"""Mod: the kernel against onnx.reference and onnxruntime (fmod=0 floors, fmod=1 truncates; a float T needs
fmod=1 before version 28), the shape formulas against onnx's shape inference, rejected nodes."""

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

OP = "Mod"
# the oracles compute the NaN edge cases with numpy, which warns about them
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
RAND = Seeded(2027)
SIGNS = [np.array([5, -5, 5, -5, 6, -6, 0], np.int32), np.array([3, 3, -3, -3, 3, -3, -4], np.int32)]
INTS = [RAND.ints(-40, 40, (3, 4), np.int64), RAND.ints(1, 9, (4,), np.int64) * np.array([1, -1, 1, -1], np.int64)]
UNSIGNED = [np.array([5, 250, 7, 0], np.uint8), np.array([3, 7, 250, 9], np.uint8)]
FLOATS = [RAND.f32(3, 4) * np.float32(5), RAND.f32(3, 1) + np.float32(0.5)]
EDGES = [np.array([0.0, -0.0, np.inf, 5, -5, 5, 3], np.float32),
         np.array([2, -2, 3, np.inf, np.inf, 0, np.nan], np.float32)]

CASES = [
    OracleCase(OP, {}, SIGNS, all_since(OP), id="int_floor"),
    OracleCase(OP, dict(fmod=1), SIGNS, all_since(OP), id="int_trunc"),
    OracleCase(OP, {}, INTS, all_since(OP), id="int64_bcast"),
    OracleCase(OP, dict(fmod=1), INTS, all_since(OP), oracle="ort", id="int64_fmod_ort"),
    OracleCase(OP, {}, UNSIGNED, all_since(OP), oracle="ort", id="uint8"),
    OracleCase(OP, dict(fmod=1), FLOATS, all_since(OP), id="float_fmod"),
    OracleCase(OP, dict(fmod=1), [f.astype(np.float16) for f in FLOATS], all_since(OP), oracle="ort", rtol=2e-3,
               id="float16_fmod_ort"),
    OracleCase(OP, {}, FLOATS, (28,), id="float_floor"),
    OracleCase(OP, {}, FLOATS, (28,), oracle="ort", id="float_floor_ort"),
    OracleCase(OP, {}, EDGES, (28,), id="float_floor_edges"),
    OracleCase(OP, dict(fmod=1), EDGES, all_since(OP), id="float_fmod_edges"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_floored_remainder_of_zero_takes_the_divisor_sign() -> None:
    (got,) = kernel("ai.onnx", OP, 28)(np.array([0.0, -0.0], np.float32), np.array([-2, 2], np.float32))
    assert np.signbit(got).tolist() == [True, False]


@pytest.mark.parametrize("opset", [10, 13])
def test_float_needs_fmod_before_28(opset: int) -> None:
    with pytest.raises(ValueError, match="needs fmod=1"):
        kernel("ai.onnx", OP, opset)(np.array([5.0], np.float32), np.array([3.0], np.float32), fmod=0)


@pytest.mark.parametrize(("opset", "fmod"), [(10, 0), (13, 1), (28, 0)])
def test_integer_divisor_zero_is_rejected(opset: int, fmod: int) -> None:
    with pytest.raises(ValueError, match="divisor holds 0"):
        kernel("ai.onnx", OP, opset)(np.array([5, 6], np.int32), np.array([0, 1], np.int32), fmod=fmod)


SHAPES = [shape_case(OP, opset, [a, b], attrs) for opset in (10, 13, 28) for attrs in ({}, {"fmod": 1})
          for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]))]

REJECTED = [(shape_case(OP, opset, [[2, 3], [2]]), "mod_c1") for opset in (10, 13, 28)]
REJECTED += [(shape_case(OP, opset, [[2], [2]], {"fmod": 2}), "attr_allowed") for opset in (10, 28)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 1], [1, 4]]) == ["N", "4"]
