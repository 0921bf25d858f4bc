"""ScatterND: the kernel against onnx.reference (every reduction, repeated tuples, k from 0 to the rank), the
shape formula against onnx, rejected nodes, and where the duplicate-write reading applies."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "ScatterND"
SEEDED = Seeded(1234)
DATA = SEEDED.f32(3, 4, 2)
ELEMENTS = np.array([[0, 1, 1], [-1, -4, 0], [2, 1, -1], [0, 1, -2]], np.int64)  # the first and last repeat
ROWS = np.array([[[1], [-3]], [[2], [0]]], np.int64)  # rows 1, 0, 2, 0


def reduction_cases(since: tuple[int, ...], reductions: tuple[str, ...]) -> list[OracleCase]:
    return [case for r in reductions for case in (
        OracleCase(OP, dict(reduction=r), [DATA, ELEMENTS, SEEDED.f32(4)], since, id=f"{r}_elements"),
        OracleCase(OP, dict(reduction=r), [DATA, ROWS, SEEDED.f32(2, 2, 4, 2)], since, id=f"{r}_rows"),
        OracleCase(OP, dict(reduction=r), [np.arange(6, dtype=np.int32), np.array([[5], [5], [-1]], np.int64),
                                           np.array([7, -3, 2**30], np.int32)], since, id=f"{r}_int32"),
    )]


CASES = [
    OracleCase(OP, {}, [DATA, ELEMENTS[:3], SEEDED.f32(3)], all_since(OP), id="elements"),
    OracleCase(OP, {}, [DATA, np.array([[2, -1], [0, 0]], np.int64), SEEDED.f32(2, 2)], all_since(OP), id="pairs"),
    OracleCase(OP, {}, [DATA, np.array([-2], np.int64), SEEDED.f32(4, 2)], all_since(OP), id="one_row"),
    OracleCase(OP, {}, [DATA, np.zeros((0,), np.int64), SEEDED.f32(3, 4, 2)], all_since(OP), id="k0_whole"),
    OracleCase(OP, {}, [DATA, ELEMENTS, SEEDED.f32(4)], all_since(OP), id="repeated_last_wins"),
    *reduction_cases(all_since(OP, 16), ("add", "mul")),
    *reduction_cases(all_since(OP, 18), ("max", "min")),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (11, 13, 16, 18)
SHAPES = [shape_case(OP, opset, [[3, 4], idx, upd]) for opset in OPSETS for idx, upd in (
    (np.zeros((5, 2), np.int64), [5]), (np.zeros((2, 1), np.int64), [2, 4]), (np.zeros((0,), np.int64), [3, 4]))]

REJECTED = [(shape_case(OP, opset, [data, idx, upd]), check) for opset in OPSETS for data, idx, upd, check in (
    ([], np.zeros((1, 0), np.int64), [1], "scatternd_c1"),
    ([3, 4], np.array(0, np.int64), [], "scatternd_c2"),
    ([3, 4], np.zeros((1, 3), np.int64), [1], "scatternd_c3"),
    ([3, 4], np.zeros((2, 1), np.int64), [2], "scatternd_c4"),
    ([3, 4], np.array([[0, 4]], np.int64), [1], "scatternd_c5"),
    ([3, 4], np.array([[-4, 0]], np.int64), [1], "scatternd_c5"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("since", "attrs", "idx", "applies"), [
    (11, {}, [[0, 1], [1, 0], [2, 3]], False),
    (11, {}, [[0, 1], [1, 0], [-3, -3]], True),  # [0, 1] and [-3, -3] are one element of [3, 4]
    (11, {}, [[1], [2], [-2]], True),  # rows 1 and -2
    (13, {}, [[]], False),  # k = 0 once: one write of everything
    (13, {}, [[], []], True),  # k = 0 twice
    (16, {"reduction": "mul"}, [[1], [1]], False),
    (18, {"reduction": "none"}, [[1], [1]], True),
])
def test_duplicate_targets_are_the_other_reading(since: int, attrs: dict[str, object], idx: list[list[int]],
                                                 applies: bool) -> None:
    indices = np.array(idx, np.int64).reshape(len(idx), -1)
    k = indices.shape[1]
    updates = [len(idx), *[3, 4][k:]]
    result = inferred(version("ai.onnx", OP, since), [[3, 4], indices, updates], attrs,
                      {"indices": indices.reshape(-1).tolist()})
    assert not result.problems
    assert [r.reading.id for r in result.readings] == (["scatternd_r1"] if applies else [])


def test_repeated_tuples_keep_the_last_update_in_row_major_order() -> None:
    (out,) = kernel("ai.onnx", OP, 18)(np.zeros(3, np.float32), np.array([[1], [-2], [2]], np.int64),
                                       np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(out, [0, 2, 3])


def test_bool_reductions_are_logical() -> None:
    data = np.array([True, False, True, False])
    idx, upd = np.array([[0], [1], [2], [3]], np.int64), np.array([False, True, False, False])
    run = kernel("ai.onnx", OP, 18)
    np.testing.assert_array_equal(run(data, idx, upd, reduction="add")[0], data | upd)
    np.testing.assert_array_equal(run(data, idx, upd, reduction="max")[0], data | upd)
    np.testing.assert_array_equal(run(data, idx, upd, reduction="mul")[0], data & upd)
    np.testing.assert_array_equal(run(data, idx, upd, reduction="min")[0], data & upd)
