"""LinearAttention: every update rule against onnx.reference (grouped heads, a past state, per-head and
per-key-dimension decay), the shape formulas against onnx, and inconsistent nodes rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "LinearAttention"
f32 = Seeded(27).f32


def unit_keys(b: int, t: int, heads: int, dk: int) -> np.ndarray:
    k = np.random.default_rng(b * 100 + t).uniform(-1, 1, size=(b, t, heads, dk))
    return (k / np.linalg.norm(k, axis=-1, keepdims=True)).reshape(b, t, heads * dk).astype(np.float32)


def rates(*shape: int, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    return np.random.default_rng(sum(shape)).uniform(low, high, size=shape).astype(np.float32)


HEADS = {"q_num_heads": 4, "kv_num_heads": 2}
Q, K, V = f32(2, 3, 12), unit_keys(2, 3, 2, 3), f32(2, 3, 4)
PAST = f32(2, 2, 3, 2)
CASES = [
    OracleCase(OP, {**HEADS, "update_rule": "linear"}, [Q, K, V, None, None, None], (27,), n_out=2, id="linear"),
    OracleCase(OP, {**HEADS, "update_rule": "gated"}, [Q, K, V, PAST, rates(2, 3, 6, low=-1, high=0), None], (27,),
               n_out=2, id="gated_per_key_dim"),
    OracleCase(OP, {**HEADS, "update_rule": "delta", "scale": 0.5}, [Q, K, V, None, None, rates(2, 3, 2)], (27,),
               n_out=2, id="delta"),
    OracleCase(OP, {**HEADS, "update_rule": "gated_delta", "chunk_size": 2},
               [Q, K, V, PAST, rates(2, 3, 2, low=-1, high=0), rates(2, 3, 1)], (27,), n_out=2,
               id="gated_delta_per_head"),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [shape_case(OP, 27, [[2, 3, 12], [2, 3, 6], [2, 3, 4], None, [2, 3, 2], [2, 3, 2]], HEADS, n_out=2),
          shape_case(OP, 27, [[1, 1, 16], [1, 1, 8], [1, 1, 2], [1, 2, 4, 1]], {**HEADS, "update_rule": "linear"},
                     n_out=2)]
test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [
    (shape_case(OP, 27, [[2, 3, 12], [2, 3, 6], [2, 3, 4]], {"q_num_heads": 3, "kv_num_heads": 2,
                                                              "update_rule": "linear"}), "linearattention_c1"),
    (shape_case(OP, 27, [[2, 3, 10], [2, 3, 6], [2, 3, 4]], {**HEADS, "update_rule": "linear"}),
     "linearattention_c2"),
    (shape_case(OP, 27, [[2, 3, 12], [2, 3, 6], [2, 3, 4]], HEADS), "linearattention_c4"),  # gated_delta, no decay
    (shape_case(OP, 27, [[2, 3, 12], [2, 3, 6], [2, 3, 4], None, None, [2, 3, 2]], {**HEADS, "update_rule": "linear"}),
     "linearattention_c5"),
]
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
