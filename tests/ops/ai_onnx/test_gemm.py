"""Gemm: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Gemm"
f32 = Seeded(1234).f32
GA, GB, GC = f32(4, 3), f32(4, 5), f32(3, 5)

CASES = [
    OracleCase(OP, dict(alpha=0.5, beta=2.0, transA=1), [GA, GB, GC], all_since(OP, 7), id="transA"),
    OracleCase(OP, dict(alpha=0.5, beta=2.0, transA=1), [GA, GB, GC], all_since(OP, 1, 6),
               oracle=lambda: [0.5 * GA.T @ GB + 2.0 * GC], id="transA"),
    OracleCase(OP, dict(transB=1), [f32(3, 4), f32(5, 4), f32(5)], all_since(OP, 7), id="bias_row"),
    OracleCase(OP, dict(broadcast=1), [GB.T, GB, GC[0]], all_since(OP, 1, 6), oracle=lambda: [GB.T @ GB + GC[0]],
               id="legacy_bcast"),
    OracleCase(OP, {}, [f32(3, 4), f32(4, 5)], all_since(OP, 11), id="no_c"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[3, 4], [4, 5], [3, 5]]),
    shape_case(OP, 7, [[4, 3], [5, 4], [1, 5]], {"transA": 1, "transB": 1}),
    shape_case(OP, 9, [[3, 4], [4, 5], [5]]),
    shape_case(OP, 11, [[3, 4], [4, 5]]),
    shape_case(OP, 13, [[3, 4], [5, 4], []], {"transB": 1, "alpha": 0.5}),
    shape_case(OP, 13, [[4, 3], [4, 5], [3, 1]], {"transA": 1}),
    shape_case(OP, 1, [[3, 4], [4, 5], [5]], {"broadcast": 1}, not_inferred_by_onnx={0: [3, 5]}),
    shape_case(OP, 1, [[4, 3], [4, 5], [3, 5]], {"transA": 1}, not_inferred_by_onnx={0: [3, 5]}),
]

REJECTED = [
    (shape_case(OP, 13, [[3, 4], [5, 5]]), "gemm_c1"),
    (shape_case(OP, 13, [[3, 4], [4, 5], [2, 5]]), "gemm_c3"),
    (shape_case(OP, 6, [[3, 4], [4, 5], [5]]), "gemm_c2"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
