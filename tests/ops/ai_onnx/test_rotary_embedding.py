"""RotaryEmbedding: the kernel against onnx.reference (3-D and 4-D X, interleaved or halves, partial rotation,
with and without position ids), the shape formula against onnx, and inconsistent inputs rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "RotaryEmbedding"
f32 = Seeded(23).f32
POSITIONS = np.array([[0, 3, 1], [2, 2, 4]], np.int64)

CASES = [
    OracleCase(OP, {}, [f32(2, 2, 3, 8), f32(5, 4), f32(5, 4), POSITIONS], (23,), id="4d_positions"),
    OracleCase(OP, {"interleaved": 1}, [f32(2, 2, 3, 8), f32(5, 4), f32(5, 4), POSITIONS], (23,), id="interleaved"),
    OracleCase(OP, {"num_heads": 2, "rotary_embedding_dim": 4}, [f32(2, 3, 16), f32(5, 2), f32(5, 2), POSITIONS],
               (23,), id="3d_partial"),
    OracleCase(OP, {"interleaved": 1, "rotary_embedding_dim": 2}, [f32(2, 1, 3, 6), f32(2, 3, 1), f32(2, 3, 1), None],
               (23,), id="caches_per_position"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [
    shape_case(OP, 23, [[2, 2, 3, 8], [5, 4], [5, 4], POSITIONS]),
    shape_case(OP, 23, [[2, 3, 16], [5, 2], [5, 2], POSITIONS], {"num_heads": 2, "rotary_embedding_dim": 4}),
    shape_case(OP, 23, [[2, 1, 3, 6], [2, 3, 3], [2, 3, 3], None]),
]
test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [
    (shape_case(OP, 23, [[2, 3, 16], [5, 4], [5, 4], POSITIONS]), "rotaryembedding_c2"),  # 3-D without num_heads
    (shape_case(OP, 23, [[2, 2, 3, 8], [5, 4], [5, 4], POSITIONS], {"rotary_embedding_dim": 3}),
     "rotaryembedding_c3"),
    (shape_case(OP, 23, [[2, 2, 3, 8], [5, 3], [5, 3], POSITIONS]), "rotaryembedding_c4"),
    (shape_case(OP, 23, [[2, 2, 3, 8], [3, 4], [3, 4], POSITIONS]), "rotaryembedding_c6"),
    (shape_case(OP, 23, [[2, 2, 3, 8, 1], [5, 4], [5, 4], POSITIONS]), "rotaryembedding_c1"),
]
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
