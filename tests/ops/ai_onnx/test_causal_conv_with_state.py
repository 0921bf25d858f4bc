"""CausalConvWithState: the kernel against onnx.reference and against Conv on the zero-padded sequence, the
shape formulas against onnx, a wrong carry state rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, kernel, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "CausalConvWithState"
f32 = Seeded(5).f32

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 5), f32(3, 1, 3), None, None], (27,), n_out=2, id="plain"),
    OracleCase(OP, {"activation": "silu"}, [f32(1, 2, 4), f32(2, 1, 4), f32(2), f32(1, 2, 3)], (27,), n_out=2,
               id="silu_bias_state"),
    OracleCase(OP, {}, [f32(1, 2, 1), f32(2, 1, 3), None, f32(1, 2, 2)], (27,), n_out=2, id="decode_step"),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [shape_case(OP, 27, [[2, 3, 5], [3, 1, 3]], n_out=2),
          shape_case(OP, 27, [[1, 2, 4], [2, 1, 4], [2], [1, 2, 3]], n_out=2)]
test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [(shape_case(OP, 27, [[1, 2, 4], [2, 1, 4], None, [1, 2, 2]], n_out=2), "causalconvwithstate_c1")]
test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_prefill_then_decode_equals_one_pass() -> None:
    """Running a sequence in two calls, the second fed the first's present state, gives the one-call result."""
    run = kernel("ai.onnx", OP, 27)
    x, w = f32(1, 2, 6), f32(2, 1, 3)
    whole, _ = run(x, w, None, None, activation="none")
    first, state = run(x[:, :, :4], w, None, None, activation="none")
    second, _ = run(x[:, :, 4:], w, None, state, activation="none")
    np.testing.assert_allclose(np.concatenate([first, second], axis=2), whole, rtol=1e-6, atol=1e-6)
