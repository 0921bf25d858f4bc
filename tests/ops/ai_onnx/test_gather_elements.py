"""GatherElements: the kernel against onnx.reference (onnxruntime for a negative axis or indices smaller than
data on another axis, which the reference does not run), the shape formula against onnx, rejected nodes."""

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

OP = "GatherElements"
SEEDED = Seeded(1234)
DATA = SEEDED.f32(3, 4, 5)


def indices(shape: tuple[int, ...], size: int, dtype: type[np.integer] = np.int64) -> np.ndarray:
    """Indices in [-size, size-1] of `shape`."""
    return SEEDED.ints(-size, size, shape, dtype)


CASES = [
    OracleCase(OP, dict(axis=1), [DATA, indices((3, 4, 5), 4)], all_since(OP), id="same_shape"),
    OracleCase(OP, dict(axis=2), [DATA, indices((3, 4, 7), 5, np.int32)], all_since(OP), id="longer_axis_int32"),
    OracleCase(OP, dict(axis=-2), [DATA, indices((3, 2, 5), 4)], all_since(OP), oracle="ort", id="negative_axis"),
    OracleCase(OP, {}, [DATA, indices((1, 4, 5), 3)], all_since(OP), id="shorter_axis0"),
    OracleCase(OP, dict(axis=1), [DATA, indices((2, 6, 3), 4)], all_since(OP), oracle="ort",
               id="smaller_other_axes"),
    OracleCase(OP, {}, [np.arange(6, dtype=np.int8), np.array([5, -6, 0], np.int64)], all_since(OP), id="rank1"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (11, 13)
SHAPES = [shape_case(OP, opset, [data, idx], attrs) for opset in OPSETS for data, idx, attrs in (
    ([3, 4], np.zeros((3, 4), np.int64), {}),
    ([3, 4], np.ones((2, 7), np.int64), {"axis": 1}),
    ([3, 4, 5], np.full((1, 2, 3), -1, np.int64), {"axis": -2}),
)]

REJECTED = [(shape_case(OP, opset, [data, idx], attrs), check) for opset in OPSETS for data, idx, attrs, check in (
    ([], np.zeros((), np.int64), {}, "gatherelements_c1"),
    ([3, 4], np.zeros((3,), np.int64), {}, "gatherelements_c2"),
    ([3, 4], np.zeros((3, 4), np.int64), {"axis": -3}, "gatherelements_c3"),
    ([3, 4], np.zeros((4, 2), np.int64), {"axis": 1}, "gatherelements_c4"),
    ([3, 4], np.full((3, 4), 4, np.int64), {"axis": 1}, "gatherelements_c5"),
    ([3, 4], np.full((3, 4), -4, np.int64), {}, "gatherelements_c5"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_smaller_indices_read_the_covered_part() -> None:
    data = np.arange(9, dtype=np.float32).reshape(3, 3)
    (out,) = kernel("ai.onnx", OP, 13)(data, np.array([[-1, 0], [1, 1]], np.int64), axis=1)
    np.testing.assert_array_equal(out, [[2, 0], [4, 4]])


@pytest.mark.parametrize("bad", [np.full((3, 4, 5), 4, np.int64), np.zeros((4, 4, 5), np.int64)])
def test_kernel_rejects_indices_outside_data(bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        kernel("ai.onnx", OP, 13)(DATA, bad, axis=1)


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 4], [Sym("N"), 2]], {"axis": 1}) == ["N", "2"]
