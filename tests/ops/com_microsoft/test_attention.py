"""com.microsoft Attention: the kernel and every output's shape formula against onnxruntime's CPU kernel (each
mask_index layout it accepts, past/present, unidirectional, qkv_hidden_sizes, attention_bias, mask_filter_value,
scale, float16), and invalid nodes reported under their constraint ids."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, ShapeCase, oracle_params, oracle_tests, rejection_tests, shape_case
from tests.helpers.ort_attention import assert_every_output_shape_matches_onnxruntime, i32

DOMAIN = "com.microsoft"
OP = "Attention"
f32 = Seeded(11).f32
B, S, IN, N, H = 2, 3, 5, 2, 3
X, W, BIAS = f32(B, S, IN), f32(IN, 3 * N * H), f32(3 * N * H)
PAST = f32(2, B, N, 2, H)
rng = np.random.default_rng(5)


def _bits(*shape: int) -> np.ndarray:
    return rng.integers(0, 2, shape).astype(np.int32)


def case(inputs: list[np.ndarray | None], case_id: str, n_out: int = 1, rtol: float = 1e-4, **attrs: object
         ) -> OracleCase:
    return OracleCase(OP, {"num_heads": N, **attrs}, inputs, (1,), n_out=n_out, oracle="ort", rtol=rtol, id=case_id,
                      domain=DOMAIN)


CASES = [
    case([X, W, BIAS], "plain"),
    case([X, W, None], "no_bias"),
    case([X, W, BIAS], "scale", scale=0.3),
    case([X, W, BIAS], "unidirectional", unidirectional=1),
    case([X, W, BIAS, i32(2, 3)], "mask_ends"),
    case([X, W, BIAS, i32(0, 1)], "mask_ends_all_masked"),
    case([X, W, BIAS, i32(2, 3, 1, 0)], "mask_ends_starts"),
    case([X, W, BIAS, i32(2, 3, 1, 0)], "mask_ends_starts_unidirectional", unidirectional=1),
    case([X, W, BIAS, i32(3, 2, 0, 1, 0, 0, 0, 0)], "mask_3b2_reads_ends"),
    case([X, W, BIAS, _bits(B, S)], "mask_2d", unidirectional=1),
    case([X, W, BIAS, np.zeros((B, S), np.int32)], "mask_2d_all_masked_unidirectional", unidirectional=1),
    case([X, W, BIAS, np.zeros((1, 1), np.int32)], "mask_one_column_ignored"),
    # one token, no past: total is 1, so (batch, 1) is a real mask and only (1, 1) of batch 2 is onnxruntime's dummy
    case([X[:, :1], W, BIAS, np.zeros((1, 1), np.int32)], "mask_one_by_one_ignored_at_total_1"),
    case([X[:, :1], W, BIAS, i32(0, 1).reshape(B, 1)], "mask_batch_by_one_at_total_1"),
    case([X, W, BIAS, _bits(B, S, S)], "mask_3d", unidirectional=1),
    case([X, W, BIAS, _bits(B, S)], "mask_filter_value", mask_filter_value=-1.5),
    case([X, W, BIAS], "present", n_out=2),
    case([X, W, BIAS, None, PAST], "past", n_out=2),
    case([X, W, BIAS, None, PAST], "past_unidirectional", n_out=2, unidirectional=1),
    case([X[:, :1], W, BIAS, None, PAST], "past_one_token", n_out=2, unidirectional=1),
    case([X, W, BIAS, _bits(B, S + 2), PAST], "past_mask_2d", n_out=2, unidirectional=1),
    case([X, W, BIAS, i32(4, 5), PAST], "past_mask_ends", n_out=2),
    case([X, W, BIAS, _bits(B, S, S + 2), PAST], "past_mask_3d", n_out=2, unidirectional=1),
    case([X, W, BIAS, None, None, f32(1, N, S, S)], "attention_bias"),
    case([X, W, BIAS, i32(1, 3), None, f32(B, 1, S, S)], "attention_bias_per_batch_masked", unidirectional=1),
    case([X, f32(IN, 14), f32(14)], "qkv_hidden_sizes", qkv_hidden_sizes=[4, 4, 6]),
    case([X, f32(IN, 6), f32(6)], "pruned_heads"),
    case([X.astype(np.float16), W.astype(np.float16), BIAS.astype(np.float16), i32(2, 3)], "fp16", rtol=3e-3),
    case([X.astype(np.float16), W.astype(np.float16), BIAS.astype(np.float16), None, PAST.astype(np.float16)],
         "fp16_past", n_out=2, rtol=3e-3, unidirectional=1),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params([c for c in CASES if "fp16" not in c.id]))
def test_every_output_shape_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_every_output_shape_matches_onnxruntime(case, opset)


def test_shared_buffer_writes_after_the_valid_past() -> None:
    """past_present_share_buffer (which onnxruntime's CPU Attention cannot run): the new keys and values land at
    past_sequence_length in a copy of the buffer, and attention reads only the valid rows, so the result equals
    the unshared call on the valid past."""
    from tests.helpers import run

    buf = f32(2, B, N, 6, H)
    shared = run(DOMAIN, OP, 1, [X, W, BIAS, None, buf, None, np.array(2, np.int32)], num_heads=N,
                 past_present_share_buffer=1, unidirectional=1)
    plain = run(DOMAIN, OP, 1, [X, W, BIAS, None, buf[:, :, :, :2]], num_heads=N, unidirectional=1)
    np.testing.assert_allclose(shared[0], plain[0], rtol=1e-6)
    assert shared[1].shape == buf.shape
    np.testing.assert_allclose(shared[1][:, :, :, :5], plain[1], rtol=1e-6)
    np.testing.assert_array_equal(shared[1][:, :, :, 5:], buf[:, :, :, 5:])


def _node(inputs: list[list[int] | np.ndarray | None], n_out: int = 1, **attrs: object) -> ShapeCase:
    return shape_case(OP, 1, inputs, {"num_heads": N, **attrs}, n_out, domain=DOMAIN)


REJECTED = [
    (_node([[B, S, IN], [IN, 16], [16]]), "attention_c1"),
    (_node([[B, S, IN], [IN, 14], [14]], qkv_hidden_sizes=[4, 4, 4]), "attention_c2"),
    (_node([[B, S, IN], [IN, 14], [14]], qkv_hidden_sizes=[6, 4, 4]), "attention_c3"),
    (_node([[B, S, IN], [IN, 15], [15]], qkv_hidden_sizes=[5, 5, 5]), "attention_c3"),
    (_node([[B, S, IN], [IN, 18], [18], None, [2, B, N, 2, 4]], 2), "attention_c4"),
    (_node([[B, S, IN], [IN, 18], [18], [B + 1]]), "attention_c5"),
    (_node([[B, S, IN], [IN, 18], [18], [B, S + 1]]), "attention_c5"),
    (_node([[B, S, IN], [IN, 18], [18], None, None, [B, N, S, S + 1]]), "attention_c6"),
    (_node([[B, S, IN], [IN, 18], [18], None, [2, B, N, 2, 3], [B, N, S, S + 2]], 2), "attention_c7"),
    (_node([[B, S, IN], [IN, 18], [18], None, [2, B, N, 6, 3]], 2, past_present_share_buffer=1), "attention_c8"),
    (_node([[B, S, IN], [IN, 18], [18], None, [2, B, N, 6, 3], None, np.array(2, np.int32)], 2,
           past_present_share_buffer=1), "attention_c8"),
    (_node([[B, S, IN], [IN, 18], [18], [B, 1, 4, 4]], unidirectional=1), "attention_c9"),
    (_node([[B, S, IN], [IN, 18], [18]], unidirectional=2), "attr_allowed"),
    (_node([[B, S, IN], [IN, 18], [17]]), "binding"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
