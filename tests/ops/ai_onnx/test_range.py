"""Range: the kernel against onnx.reference (integers, floats, opset 27's float16 with either stash type), the
data-dependent shape formula against onnx, a zero delta."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    all_since,
    inferred,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "Range"


def scalars(dtype: type, *values: float) -> list[np.ndarray]:
    return [np.array(v, dtype) for v in values]


CASES = [
    OracleCase(OP, {}, scalars(np.int32, 3, 9, 3), all_since(OP), id="int32"),
    OracleCase(OP, {}, scalars(np.int64, 10, 4, -2), all_since(OP), id="down"),
    OracleCase(OP, {}, scalars(np.int16, 1, 5, -1), all_since(OP), id="empty"),
    OracleCase(OP, {}, scalars(np.float32, -1.5, 2.0, 0.25), all_since(OP), id="float"),
    OracleCase(OP, {}, scalars(np.float64, 1.0, -1.0, -0.375), all_since(OP), id="double"),
    OracleCase(OP, {}, scalars(np.float16, 0.0, 3.0, 0.5), all_since(OP, 27), id="float16"),
    OracleCase(OP, dict(stash_type=11), scalars(np.float16, 2.0, -1.0, -0.75), all_since(OP, 27), id="stash_double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def ints(*values: int) -> list[np.ndarray]:
    return [np.array(v, np.int64) for v in values]


SHAPES = [shape_case(OP, v, ints(*abc)) for v in (11, 27) for abc in ((3, 9, 3), (10, 4, -2), (1, 5, -1), (0, 7, 2))]
REJECTED = [
    (shape_case(OP, 11, ints(0, 5, 0)), "range_c1"),
    (shape_case(OP, 11, [np.zeros(1, np.int64), *ints(5, 1)]), "rank"),
    (shape_case(OP, 27, ints(0, 5, 1), {"stash_type": 10}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_unknown_values_leave_the_length_unknown() -> None:
    result = inferred(version("ai.onnx", OP, 11), [[], [], []])
    assert result.outputs == [None] and result.problems == []
