"""com.microsoft MultiHeadAttention: the kernel and every output's shape formula against onnxruntime's CPU kernel
(3-D and in-heads key/value, bias, each key_padding_mask layout, attention_bias, past and shared-buffer caches,
unidirectional with and without a past, scale, mask_filter_value, float16), and invalid nodes reported under their
constraint ids."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, ShapeCase, oracle_params, oracle_tests, rejection_tests, shape_case
from tests.helpers.ort_attention import assert_every_output_shape_matches_onnxruntime, i32

DOMAIN = "com.microsoft"
OP = "MultiHeadAttention"
f32 = Seeded(13).f32
B, S, L, N, H = 2, 3, 4, 2, 3
D = N * H
Q, K, V = f32(B, S, D), f32(B, L, D), f32(B, L, D)
KS, VS = f32(B, S, D), f32(B, S, D)
PK, PV = f32(B, N, 2, H), f32(B, N, 2, H)
rng = np.random.default_rng(7)


def _bits(*shape: int) -> np.ndarray:
    return rng.integers(0, 2, shape).astype(np.int32)


def case(inputs: list[np.ndarray | None], case_id: str, n_out: int = 3, rtol: float = 1e-4, **attrs: object
         ) -> OracleCase:
    return OracleCase(OP, {"num_heads": N, **attrs}, inputs, (1,), n_out=n_out, oracle="ort", rtol=rtol, id=case_id,
                      domain=DOMAIN)


CASES = [
    case([Q, K, V], "cross"),
    case([Q, K, V], "cross_output_only", n_out=1),
    case([Q, K, f32(B, L, 4)], "v_hidden_differs"),
    case([Q, K, f32(B, L, 4), f32(2 * D + 4)], "bias"),
    case([Q, K, V], "scale", scale=0.3),
    case([Q, K, V], "unidirectional_cross_last_row_sees_all", unidirectional=1),
    case([Q, f32(B, N, L, H), f32(B, N, L, H)], "key_value_in_heads"),
    case([Q[:, :1], f32(B, N, L, H), f32(B, N, L, H), f32(3 * D)], "key_value_in_heads_bias_on_query_only"),
    case([Q, K, V, None, i32(2, 4)], "mask_ends"),
    case([Q, K, V, None, i32(0, 1)], "mask_ends_all_masked"),
    case([Q, K, V, None, i32(3, 1, 2, 1, 0, 3, 0, 0)], "mask_3b2_reads_ends"),
    case([Q, K, V, None, _bits(B, L)], "mask_2d"),
    case([Q, K, V, None, _bits(B, S, L)], "mask_3d"),
    case([Q, K, V, None, _bits(B, L)], "mask_filter_value", mask_filter_value=-2.0),
    case([Q, K, V, None, None, f32(1, N, S, L)], "attention_bias"),
    case([Q, K, V, None, _bits(B, L), f32(B, 1, S, L)], "attention_bias_per_batch_masked"),
    case([Q, KS, VS, None, None, None, PK, PV], "past"),
    case([Q, KS, VS, f32(3 * D), None, None, PK, PV], "past_bias"),
    case([Q, KS, VS, None, None, None, PK, PV], "past_unidirectional", unidirectional=1),
    case([Q, KS, VS, None, _bits(B, S + 2), None, PK, PV], "past_mask_2d", unidirectional=1),
    case([Q, KS, VS, None, i32(3, 5), None, PK, PV], "past_mask_ends"),
    case([Q, KS, VS, None, _bits(B, S, S + 2), None, PK, PV], "past_mask_3d", unidirectional=1),
    case([Q, KS, VS, None, None, f32(B, N, S, S + 2), PK, PV], "past_attention_bias", unidirectional=1),
    case([Q, KS, VS], "self_unidirectional", unidirectional=1),
    case([Q[:, :1], KS[:, :1], VS[:, :1], None, None, None, f32(B, N, 6, H), f32(B, N, 6, H), np.array(2, np.int32)],
         "shared_buffer_one_token"),
    case([Q, KS, VS, None, None, None, f32(B, N, 6, H), f32(B, N, 6, H), np.array(2, np.int32)],
         "shared_buffer_three_tokens", unidirectional=1),
    case([Q.astype(np.float16), K.astype(np.float16), V.astype(np.float16)], "fp16", rtol=3e-3),
    case([Q.astype(np.float16), KS.astype(np.float16), VS.astype(np.float16), None, None, None,
          PK.astype(np.float16), PV.astype(np.float16)], "fp16_past", rtol=3e-3, unidirectional=1),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params([c for c in CASES if "fp16" not in c.id]))
def test_every_output_shape_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_every_output_shape_matches_onnxruntime(case, opset)


def test_qk_is_the_masked_scores_before_softmax() -> None:
    """The qk output (a type no input binds, so one-node models cannot ask onnxruntime for it): the scaled scores
    with the mask and bias, whose softmax weighs V into the output."""
    from tests.helpers import run

    out, _, _, qk = run(DOMAIN, OP, 1, [Q, K, V, None, i32(2, 4)], num_heads=N)
    assert qk.shape == (B, N, S, L)
    weights = np.exp(qk - qk.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    heads = (weights @ V.reshape(B, L, N, H).transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3).reshape(B, S, D)
    np.testing.assert_allclose(out, heads, rtol=1e-5, atol=1e-6)
    assert np.all(qk[0, :, :, 2:] < -9000)


def _node(inputs: list[list[int] | np.ndarray | None], n_out: int = 1, **attrs: object) -> ShapeCase:
    return shape_case(OP, 1, inputs, {"num_heads": N, **attrs}, n_out, domain=DOMAIN)


REJECTED = [
    (_node([[B, S, D + 1], [B, L, D + 1], [B, L, D + 1]]), "multiheadattention_c1"),
    (_node([[B, S, N, 3, H], [B, L, D], [B, L, D]]), "multiheadattention_c1"),
    (_node([[B, S, D], [B, L, D + 2], [B, L, D]]), "multiheadattention_c2"),
    (_node([[B, S, D], [B, L, D], [B, L + 1, D]]), "multiheadattention_c2"),
    (_node([[B, S, D], [B, N, L, H + 1], [B, N, L, H]]), "multiheadattention_c2"),
    (_node([[B, S, D], [B, N, L, H], [B, N, L, H + 1]]), "multiheadattention_c2"),
    (_node([[B, S, D], [B, L, D], [B, L, D], [3 * D + 1]]), "multiheadattention_c3"),
    (_node([[B, S, D], [B, L, D], [B, L, D], None, None, None, [B, N, 2, H]], 3), "multiheadattention_c4"),
    (_node([[B, S, D], [B, N, L, H], [B, N, L, H], None, None, None, [B, N, 2, H], [B, N, 2, H]], 3),
     "multiheadattention_c4"),
    (_node([[B, S, D], [B, L, D], [B, L, D], None, None, None, [B, N, 5, H], [B, N, 5, H], np.array(2, np.int32)],
           3), "multiheadattention_c5"),
    (_node([[B, S, D], [B, L, D], [B, L, 2 * N], None, None, None, [B, N, 2, H], [B, N, 2, 2]], 3),
     "multiheadattention_c4"),
    (_node([[B, S, D], [B, L, D], [B, L, D], None, [2 * B]]), "multiheadattention_c6"),
    (_node([[B, S, D], [B, L, D], [B, L, D], None, [B, L + 1]]), "multiheadattention_c6"),
    (_node([[B, S, D], [B, L, D], [B, L, D], None, None, [B, N + 1, S, L]]), "multiheadattention_c7"),
    (_node([[B, S, D], [B, L, D], [B, L, D]], unidirectional=3), "attr_allowed"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
