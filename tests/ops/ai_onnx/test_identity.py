"""Identity: the kernel against onnx.reference (tensors, sequences, optionals) and the shape formula against onnx's
shape inference."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    shape_case,
    shape_tests,
)

OP = "Identity"
f32 = Seeded(1234).f32

SEQ = [f32(2, 3), f32(4)]

# containers: a sequence from 14, an optional (present or empty) from 16; onnx.reference cannot return an empty
# optional, so onnxruntime is the oracle for one
CASES = [
    OracleCase(OP, {}, [f32(2, 3, 4, 5)], all_since(OP)),
    OracleCase(OP, {}, [SEQ], all_since(OP, 14), id="sequence"),
    OracleCase(OP, {}, [[]], all_since(OP, 14), input_types={0: "seq(tensor(int64))"}, oracle="ort",
               id="empty_sequence"),
    OracleCase(OP, {}, [f32(3)], all_since(OP, 16), input_types={0: "optional(tensor(float))"}, id="optional"),
    OracleCase(OP, {}, [SEQ], all_since(OP, 16), input_types={0: "optional(seq(tensor(float)))"},
               id="optional_sequence"),
    OracleCase(OP, {}, [None], all_since(OP, 16), input_types={0: "optional(tensor(float))"}, oracle="ort",
               id="empty_optional"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 1, [[2, 3]]),
    shape_case(OP, 13, [[]]),
    shape_case(OP, 14, [[4, 5, 6]]),
    shape_case(OP, 25, [[1]]),
    shape_case(OP, 14, [[[2, 3], [4, 3]]]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
