"""Attention: the kernel against onnx.reference and onnxruntime (heads grouped, 3-D inputs, a KV cache, boolean
and float masks, causal masking, softcap, every qk_matmul_output mode, padding and windows), the shape formulas
against onnx, and inconsistent nodes rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "Attention"
f32 = Seeded(31).f32
BOOL_MASK = np.array([[True, False, True, True], [True, True, False, True]])
ALL = (23, 24, 25)

CASES = [
    OracleCase(OP, {}, [f32(2, 4, 3, 5), f32(2, 2, 4, 5), f32(2, 2, 4, 6)], ALL, id="gqa"),
    OracleCase(OP, {"q_num_heads": 2, "kv_num_heads": 2, "is_causal": 1}, [f32(1, 3, 8), f32(1, 3, 8), f32(1, 3, 6)],
               ALL, id="3d_causal"),
    OracleCase(OP, {"is_causal": 1}, [f32(1, 2, 2, 4), f32(1, 2, 2, 4), f32(1, 2, 2, 3), None, f32(1, 2, 3, 4),
                                       f32(1, 2, 3, 3)], ALL, n_out=3, id="past_cache_causal"),
    OracleCase(OP, {"scale": 0.5}, [f32(1, 1, 2, 3), f32(1, 1, 4, 3), f32(1, 1, 4, 2), BOOL_MASK], ALL, id="bool_mask"),
    OracleCase(OP, {"qk_matmul_output_mode": 3}, [f32(1, 2, 2, 3), f32(1, 2, 4, 3), f32(1, 2, 4, 2), f32(2, 4)], ALL,
               n_out=4, id="float_mask_softmax_out"),
    OracleCase(OP, {"softcap": 2.0, "qk_matmul_output_mode": 1}, [f32(1, 2, 3, 4), f32(1, 2, 3, 4), f32(1, 2, 3, 4)],
               ALL, n_out=4, id="softcap"),
    # onnx.reference soft-caps the mode-0 output (reading attention_r2): onnxruntime is the oracle
    OracleCase(OP, {"softcap": 2.0}, [f32(1, 1, 2, 4), f32(1, 1, 3, 4), f32(1, 1, 3, 4)], (23,), n_out=4,
               oracle="ort", id="softcap_raw_qk"),
    OracleCase(OP, {"is_causal": 1}, [f32(2, 1, 2, 3), f32(2, 1, 5, 3), f32(2, 1, 5, 2), None, None, None,
                                       np.array([3, 5], np.int64)], (24, 25), id="nonpad_causal"),
    OracleCase(OP, {"left_window_size": 1, "right_window_size": 0}, [f32(1, 1, 4, 3), f32(1, 1, 4, 3),
                                                                     f32(1, 1, 4, 3)], (25,), id="window"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [
    shape_case(OP, 23, [[2, 4, 3, 5], [2, 2, 4, 5], [2, 2, 4, 6]]),
    shape_case(OP, 24, [[1, 3, 8], [1, 3, 8], [1, 3, 6]], {"q_num_heads": 2, "kv_num_heads": 2}),
    shape_case(OP, 23, [[1, 2, 2, 4], [1, 2, 2, 4], [1, 2, 2, 3], None, [1, 2, 3, 4], [1, 2, 3, 3]], n_out=4),
    shape_case(OP, 25, [[1, 2, 2, 3], [1, 2, 4, 3], [1, 2, 4, 2], [2, 4]]),
]
test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [
    (shape_case(OP, 23, [[1, 3, 8], [1, 3, 8], [1, 3, 6]]), "attention_c2"),  # 3-D without head counts
    (shape_case(OP, 23, [[1, 3, 2, 4], [1, 2, 2, 4], [1, 2, 2, 4]]), "attention_c3"),  # 3 heads over 2
    (shape_case(OP, 23, [[1, 2, 2, 4], [1, 2, 2, 5], [1, 2, 2, 4]]), "attention_c4"),
    (shape_case(OP, 23, [[1, 2, 2, 4], [1, 2, 2, 4], [1, 2, 2, 4], None, [1, 2, 3, 4]]), "attention_c5"),
    (shape_case(OP, 23, [[1, 2, 2, 4], [1, 2, 2, 4], [1, 2, 2, 4]], {"q_num_heads": 2, "kv_num_heads": 2}),
     "attention_c10"),
    (shape_case(OP, 23, [[1, 2, 2, 4], [1, 2, 3, 4], [1, 2, 3, 4], [2, 2]]), "attention_c6"),
    (shape_case(OP, 24, [[2, 1, 2, 3], [2, 1, 5, 3], [2, 1, 5, 2], None, None, None, np.array([3, 6], np.int64)]),
     "attention_c9"),
]
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
