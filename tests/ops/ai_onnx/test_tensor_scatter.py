"""TensorScatter: the kernel against onnx.reference (linear and circular writes, every axis but the batch one),
the shape formula against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "TensorScatter"
SEEDED = Seeded(1234)
PAST = SEEDED.f32(2, 3, 5, 4)  # batch 2, 3 heads, max_sequence_length 5 on the default axis -2

CASES = [
    OracleCase(OP, {}, [PAST, SEEDED.f32(2, 3, 2, 4), i64(3, 0)], all_since(OP), id="linear_decode"),
    OracleCase(OP, {}, [PAST, SEEDED.f32(2, 3, 5, 4)], all_since(OP), id="prefill_full"),
    OracleCase(OP, dict(mode="circular"), [PAST, SEEDED.f32(2, 3, 3, 4), i64(4, 12)], all_since(OP),
               id="circular_wraps"),
    OracleCase(OP, dict(axis=1), [PAST, SEEDED.f32(2, 1, 5, 4), i64(2, 1)], all_since(OP), id="axis1"),
    OracleCase(OP, dict(axis=-1, mode="circular"), [PAST, SEEDED.f32(2, 3, 5, 3), i64(2, 3)], all_since(OP),
               id="last_axis"),
    OracleCase(OP, dict(axis=-1), [np.arange(8, dtype=np.int32).reshape(2, 4), np.full((2, 0), 7, np.int32), i64(1, 4)],
               all_since(OP), oracle="ort", id="empty_update"),
    OracleCase(OP, dict(axis=1), [np.zeros((2, 4), bool), np.ones((2, 3), bool), i64(1, 0)], all_since(OP),
               id="bool_rank2"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 24, inputs, attrs) for inputs, attrs in (
    ([[2, 3, 5, 4], [2, 3, 2, 4], i64(0, 3)], {}),
    ([[2, 3, 5, 4], [2, 3, 2, 4]], {"mode": "circular"}),
    ([[2, 6], [2, 6], i64(0, 0)], {"axis": 1}),
    ([[2, 3, 5, 4], [2, 3, 5, 1], i64(7, 9)], {"axis": 3, "mode": "circular"}),
)]

REJECTED = [(shape_case(OP, 24, inputs, attrs), check) for inputs, attrs, check in (
    ([[4], [4]], {"axis": 0}, "tensorscatter_c1"),
    ([[2, 5, 4], [2, 5, 4]], {"axis": 0}, "tensorscatter_c2"),
    ([[2, 5, 4], [2, 5, 4]], {"axis": -3}, "tensorscatter_c2"),
    ([[2, 5, 4], [2, 5, 4]], {"axis": 3}, "tensorscatter_c2"),
    ([[2, 5, 4], [2, 6, 4]], {}, "tensorscatter_c3"),
    ([[2, 5, 4], [2, 2, 3]], {}, "tensorscatter_c3"),
    ([[2, 5, 4], [2, 2, 4, 1]], {}, "tensorscatter_c3"),
    ([[2, 5, 4], [2, 2, 4], i64(0, 0, 0)], {}, "tensorscatter_c4"),
    ([[2, 5, 4], [2, 2, 4], i64(0, -1)], {"mode": "circular"}, "tensorscatter_c5"),
    ([[2, 5, 4], [2, 2, 4], i64(0, 4)], {}, "tensorscatter_c6"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_the_same_write_past_the_end_is_valid_only_in_circular_mode() -> None:
    past, update = np.zeros((1, 4), np.float32), np.array([[1, 2, 3]], np.float32)
    run = kernel("ai.onnx", OP, 24)
    with pytest.raises(ValueError, match="linear"):
        run(past, update, i64(2), axis=1)
    np.testing.assert_array_equal(run(past, update, i64(2), axis=1, mode="circular")[0], [[3, 0, 1, 2]])


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 24, [[Sym("B"), 8, Sym("L"), 64], [Sym("B"), 8, 1, 64], [Sym("B")]]) == ["B", "8", "L",
                                                                                                        "64"]
