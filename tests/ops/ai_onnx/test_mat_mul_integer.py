"""MatMulInteger: the kernel against onnx.reference (per-tensor and per-column zero points) and an int64 product
(per-row zero points, which onnx.reference broadcasts along the wrong axis), shapes against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "MatMulInteger"
RAND = Seeded(1234)
V10 = all_since(OP)


def u8(*shape: int) -> np.ndarray:
    return RAND.ints(0, 256, shape, np.uint8)


def i8(*shape: int) -> np.ndarray:
    return RAND.ints(-128, 128, shape, np.int8)


A, B, ZA = u8(3, 4), i8(4, 2), u8(3)
BATCH_A, BATCH_B = i8(2, 3, 4), u8(2, 4, 5)
ZB_BATCH = u8(2, 1, 5)


def _per_row() -> list[np.ndarray]:
    return [((A.astype(np.int64) - ZA.astype(np.int64)[:, None]) @ B.astype(np.int64)).astype(np.int32)]


CASES = [
    OracleCase(OP, {}, [A, B], V10, id="no_zero_points"),
    OracleCase(OP, {}, [A, B, u8(), i8()], V10, id="scalar_zero_points"),
    OracleCase(OP, {}, [A, B, u8(1), i8(2)], V10, id="per_column"),
    OracleCase(OP, {}, [BATCH_A, BATCH_B, i8(), ZB_BATCH], V10, id="batched_per_column"),
    OracleCase(OP, {}, [i8(4), u8(3, 4, 2)], V10, id="vector_times_batch"),
    OracleCase(OP, {}, [A, B, ZA], V10, oracle=_per_row, id="per_row"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 10, [np.zeros(a, np.uint8), np.zeros(b, np.uint8)]) for a, b in (
    ([3, 4], [4, 2]), ([4], [4]), ([4], [2, 4, 3]), ([2, 3, 4], [4]), ([2, 1, 3, 4], [5, 4, 2]))]


REJECTED = [
    (shape_case(OP, 10, [[], [3]]), "matmulinteger_c1"),
    (shape_case(OP, 10, [[2, 3], [4, 5]]), "matmulinteger_c2"),
    (shape_case(OP, 10, [[2, 2, 3], [3, 3, 4]]), "matmulinteger_c3"),
    (shape_case(OP, 10, [[2, 3], [3, 4], [3]]), "matmulinteger_c4"),
    (shape_case(OP, 10, [[5, 2, 3], [3, 4], [2]]), "matmulinteger_c4"),
    (shape_case(OP, 10, [[2, 3], [3, 4], None, [3]]), "matmulinteger_c5"),
    (shape_case(OP, 10, [[2, 3], [5, 3, 4], None, [4]]), "matmulinteger_c5"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
