"""Gemm: the kernel against onnx.reference, the shape formula against onnx's shape inference, rejected nodes."""

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
    # integers with a fractional alpha and beta: the whole expression converted once, toward zero (gemm_r1 is the
    # reading that rounds each term on its own: 1 + 0 here, where 1.5 + 0.5 = 2 is due)
    OracleCase(OP, dict(alpha=0.5, beta=0.5), [np.array([[1, 2], [3, -4]], np.int32),
                                               np.array([[1, 1], [1, -3]], np.int32), np.array([1], np.int32)],
               all_since(OP, 11), oracle=lambda: [np.array([[2, -2], [0, 8]], np.int32)], id="int_fraction"),
    OracleCase(OP, dict(alpha=0.5, beta=1.5), [np.array([[3, -5]], np.int64), np.array([[1], [1]], np.int64),
                                               np.array([[3]], np.int64)], all_since(OP, 9), id="int64_fraction"),
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


def test_rounding_each_term_of_an_integer_gemm_is_the_other_reading() -> None:
    """gemm_r1's `when` holds for integers with a fractional alpha or beta only: floats, and integers scaled by
    whole numbers, are compared as usual."""
    from conformance.registry import current_registry
    from conformance.runner.readings import followed_reading
    from opset.infer import resolve_attributes

    version = current_registry().op("ai.onnx", OP).version(13)
    a, b, c = np.ones((2, 3), np.int32), np.ones((3, 2), np.int32), np.ones(2, np.int32)

    def reading(inputs: list[np.ndarray], **given: float) -> str | None:
        attributes = resolve_attributes(version, given, [list(x.shape) for x in inputs])
        return followed_reading(version, inputs, attributes, [[2, 2]])

    assert reading([a, b, c], alpha=0.5) == "gemm_r1 (onnx text (each term rounded on its own))"
    assert reading([a, b, c], beta=1.5) is not None
    assert reading([a, b], beta=1.5) is None  # no C: beta scales nothing
    assert reading([a, b, c], alpha=2.0, beta=3.0) is None
    assert reading([x.astype(np.float32) for x in (a, b, c)], alpha=0.5) is None
