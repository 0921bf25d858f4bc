"""SequenceAt: the kernel against onnx.reference (and onnxruntime for the 1-D position onnx.reference refuses), the
shape formula against onnx's shape inference, and every constraint."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "SequenceAt"
data = Seeded(1234)
SEQ = [data.f32(2, 3), data.f32(4, 3), data.f32(1, 3)]
INTS = [data.ints(-9, 9, (5,), np.int64), data.ints(-9, 9, (2,), np.int64)]


def at(p: int, dtype: type = np.int64) -> np.ndarray:
    return np.array(p, dtype=dtype)


CASES = [
    OracleCase(OP, {}, [SEQ, at(0)], all_since(OP), id="first"),
    OracleCase(OP, {}, [SEQ, at(2)], all_since(OP), id="last"),
    OracleCase(OP, {}, [SEQ, at(-1)], all_since(OP), id="minus_one"),
    OracleCase(OP, {}, [SEQ, at(-3, np.int32)], all_since(OP), id="minus_n_int32"),
    OracleCase(OP, {}, [INTS, at(1)], all_since(OP), id="int64_elements"),
    # a 1-D position of one value: onnxruntime takes it (onnx.reference refuses it; onnx's SequenceInsert test
    # gives one)
    OracleCase(OP, {}, [SEQ, np.array([-2], np.int64)], all_since(OP), oracle="ort", id="position_1d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 11, [[[2, 3], [4, 3], [1, 3]], at(1)]),
    shape_case(OP, 11, [[[2, 3], [4, 3], [1, 3]], at(-3)]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 11, [[], at(0)]), "sequenceat_c1"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], at(2)]), "sequenceat_c2"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], at(-3)]), "sequenceat_c2"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], np.array([[0]], np.int64)]), "sequenceat_c3"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], np.array([0, 1], np.int64)]), "sequenceat_c3"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_a_sequence_of_one_shape_needs_no_position_value() -> None:
    """Every element alike: the output's shape is theirs whichever position the node reads (as onnx infers it)."""
    v = version("ai.onnx", OP, 11)
    assert inferred(v, [[[5, 2], [5, 2]], []]).outputs == [[5, 2]]
    assert inferred(v, [[[5, 2], [4, 2]], []]).outputs == [None]  # which one: only the position's value says
