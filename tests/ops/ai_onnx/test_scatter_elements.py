"""ScatterElements: the kernel against onnx.reference (every reduction, repeated targets included), the shape
formula against onnx, rejected nodes, and where the duplicate-write reading applies."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    inferred,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "ScatterElements"
SEEDED = Seeded(1234)
DATA = SEEDED.f32(3, 4)
REPEATED = np.array([[1, -3, 1, 2], [0, 0, -1, 2]], np.int64)  # along axis 0 of size 3: targets repeat
UPDATES = SEEDED.f32(2, 4)
INTS = np.arange(12, dtype=np.int8).reshape(3, 4) * 10


def reduction_cases(since: tuple[int, ...], reductions: tuple[str, ...]) -> list[OracleCase]:
    return [OracleCase(OP, dict(reduction=r), [DATA, REPEATED, UPDATES], since, id=f"{r}_repeated")
            for r in reductions] + [
        OracleCase(OP, dict(reduction=r, axis=1), [INTS, np.array([[3, 3], [0, 3]], np.int32),
                                                   np.array([[100, 50], [7, -9]], np.int8)], since, id=f"{r}_int8")
        for r in reductions]


CASES = [
    OracleCase(OP, {}, [DATA, np.array([[2, 0, 1, -1]], np.int64), SEEDED.f32(1, 4)], all_since(OP), id="axis0"),
    OracleCase(OP, dict(axis=-1), [DATA, np.array([[3], [-4], [0]], np.int32), SEEDED.f32(3, 1)], all_since(OP),
               id="axis_last_int32"),
    OracleCase(OP, dict(axis=1), [DATA, np.array([[1, 0, 2]], np.int64), SEEDED.f32(1, 3)], all_since(OP),
               id="smaller_indices"),
    OracleCase(OP, {}, [DATA, REPEATED, UPDATES], all_since(OP), id="repeated_last_wins"),
    *reduction_cases(all_since(OP, 16), ("add", "mul")),
    *reduction_cases(all_since(OP, 18), ("max", "min")),
    OracleCase(OP, dict(reduction="add", axis=1), [np.zeros((2, 2), bool), np.array([[0, 0], [1, 1]], np.int64),
                                                   np.array([[True, True], [False, True]])], all_since(OP, 16),
               id="bool_add_is_or"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (11, 13, 16, 18)
SHAPES = [shape_case(OP, opset, [[3, 4], np.zeros((2, 4), np.int64), [2, 4]], attrs)
          for opset in OPSETS for attrs in ({}, {"axis": -1})]
SHAPES += [shape_case(OP, opset, [[3, 4], np.zeros((2, 4), np.int64), [2, 4]], {"reduction": "add"})
           for opset in (16, 18)]

REJECTED = [(shape_case(OP, opset, [data, idx, upd], attrs), check) for opset in OPSETS
            for data, idx, upd, attrs, check in (
    ([], np.zeros((), np.int64), [], {}, "scatterelements_c1"),
    ([3, 4], np.zeros((2,), np.int64), [2], {}, "scatterelements_c2"),
    ([3, 4], np.zeros((2, 4), np.int64), [2, 3], {}, "scatterelements_c3"),
    ([3, 4], np.zeros((2, 4), np.int64), [2, 4], {"axis": 2}, "scatterelements_c4"),
    ([3, 4], np.zeros((2, 5), np.int64), [2, 5], {}, "scatterelements_c5"),
    ([3, 4], np.full((2, 4), 3, np.int64), [2, 4], {}, "scatterelements_c6"),
    ([3, 4], np.full((2, 4), -4, np.int64), [2, 4], {}, "scatterelements_c6"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("since", "attrs", "idx", "applies"), [
    (11, {}, [[1, -3, 1, 2]], False),  # one row: every element written once
    (11, {}, [[1, 2, 0, 0], [-2, 0, 1, 1]], True),  # column 0: 1 and -2 are one row
    (11, {"axis": 1}, [[0, 1, 2, 3], [3, 2, 1, 0]], False),
    (11, {"axis": 1}, [[0, 1, 2, -4], [3, 2, 1, 0]], True),  # row 0: 0 and -4
    (16, {"reduction": "add"}, [[1, 2, 0, 0], [1, 0, 1, 1]], False),  # a reduction defines the result
    (18, {"reduction": "none"}, [[1, 2, 0, 0], [1, 0, 1, 1]], True),
])
def test_duplicate_targets_are_the_other_reading(since: int, attrs: dict[str, object], idx: list[list[int]],
                                                 applies: bool) -> None:
    indices = np.array(idx, np.int64)
    result = inferred(version("ai.onnx", OP, since), [[3, 4], indices, list(indices.shape)], attrs,
                      {"indices": indices.reshape(-1).tolist()})
    assert not result.problems
    assert [r.reading.id for r in result.readings] == (["scatterelements_r1"] if applies else [])


def test_repeated_targets_keep_the_last_update_in_row_major_order() -> None:
    (out,) = kernel("ai.onnx", OP, 18)(np.zeros((1, 3), np.float32), i64(1, 1, -2).reshape(1, 3),
                                       np.array([[1, 2, 3]], np.float32), axis=1)
    np.testing.assert_array_equal(out, [[0, 3, 0]])


# int8: 100 + 100 + 56 = 256 wraps to 0; 100 * 100 * 56 = 560000 = 2187 * 256 + 128 wraps to -128
@pytest.mark.parametrize(("reduction", "want"), [("add", 0), ("mul", -128)])
def test_integer_reductions_wrap(reduction: str, want: int) -> None:
    (out,) = kernel("ai.onnx", OP, 18)(np.array([[100, 1]], np.int8), i64(0, 0).reshape(1, 2),
                                       np.array([[100, 56]], np.int8), axis=1, reduction=reduction)
    assert out.dtype == np.int8
    np.testing.assert_array_equal(out, np.array([[want, 1]], np.int8))
