"""SequenceErase: the kernel against onnx.reference (and onnxruntime for the 1-D position onnx.reference refuses),
the shape formula against onnx's shape inference, and every constraint."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "SequenceErase"
data = Seeded(1234)
SEQ = [data.f32(2, 3), data.f32(4, 3), data.f32(1, 3)]


def at(p: int, dtype: type = np.int64) -> np.ndarray:
    return np.array(p, dtype=dtype)


CASES = [
    OracleCase(OP, {}, [SEQ], all_since(OP), id="last_by_default"),
    OracleCase(OP, {}, [SEQ, at(0)], all_since(OP), id="first"),
    OracleCase(OP, {}, [SEQ, at(1, np.int32)], all_since(OP), id="middle_int32"),
    OracleCase(OP, {}, [SEQ, at(-1)], all_since(OP), id="minus_one"),
    OracleCase(OP, {}, [SEQ, at(-3)], all_since(OP), id="minus_n"),
    OracleCase(OP, {}, [SEQ[:1], at(0)], all_since(OP), id="to_empty"),
    OracleCase(OP, {}, [SEQ, np.array([-2], np.int64)], all_since(OP), oracle="ort", id="position_1d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 11, [[[2, 3], [4, 3], [1, 3]], at(1)]),
    shape_case(OP, 11, [[[2, 3], [4, 3], [1, 3]], at(-1)]),
    shape_case(OP, 11, [[[2, 3], [4, 3], [1, 3]]]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 11, [[]]), "sequenceerase_c1"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], at(2)]), "sequenceerase_c2"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], at(-3)]), "sequenceerase_c2"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], np.array([[1]], np.int64)]), "sequenceerase_c3"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
