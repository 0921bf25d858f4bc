"""com.microsoft GroupQueryAttention: the kernel and every output's shape formula against onnxruntime's CPU kernel
(first prompt, right-padded prompt, decoding with a cache, a multi-token chunk, packed QKV, grouping, causal and
bidirectional, local windows, softcap, smooth softmax, head sinks, attention_bias, rotary with and without position
ids, output_qk before and after the softmax, float16), and invalid nodes reported under their constraint ids."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, ShapeCase, oracle_params, oracle_tests, rejection_tests, run, shape_case
from tests.helpers.ort_attention import assert_every_output_shape_matches_onnxruntime, i32, scalar_i32

DOMAIN = "com.microsoft"
OP = "GroupQueryAttention"
f32 = Seeded(17).f32
B, S, N, NK, H = 2, 3, 4, 2, 8
Q, K, V = f32(B, S, N * H), f32(B, S, NK * H), f32(B, S, NK * H)
R = 16
QR, KR, VR = f32(B, S, N * R), f32(B, S, NK * R), f32(B, S, NK * R)
COS, SIN = f32(8, 8), f32(8, 8)
PROMPT = [i32(2, 2), scalar_i32(3)]
HEADS = {"num_heads": N, "kv_num_heads": NK}


def case(inputs: list[np.ndarray | None], case_id: str, n_out: int = 3, rtol: float = 1e-4, **attrs: object
         ) -> OracleCase:
    return OracleCase(OP, {**HEADS, **attrs}, inputs, (1,), n_out=n_out, oracle="ort", rtol=rtol, id=case_id,
                      domain=DOMAIN)


def decode(q: np.ndarray, k: np.ndarray, v: np.ndarray, past: int = 2, head: int = H) -> list[np.ndarray | None]:
    return [q[:, :1], k[:, :1], v[:, :1], f32(B, NK, past, head), f32(B, NK, past, head), i32(past, past),
            scalar_i32(past + 1)]


def chunk(past: int = 2) -> list[np.ndarray | None]:
    return [Q[:1], K[:1], V[:1], f32(1, NK, past, H), f32(1, NK, past, H), i32(past + S - 1), scalar_i32(past + S)]


CASES = [
    case([Q, K, V, None, None, *PROMPT], "prompt"),
    case([Q, K, V, None, None, *PROMPT], "prompt_output_only", n_out=1),
    case([Q, f32(B, S, N * H), f32(B, S, N * H), None, None, *PROMPT], "no_grouping", num_heads=N, kv_num_heads=N),
    case([Q, f32(B, S, H), f32(B, S, H), None, None, *PROMPT], "one_kv_head", kv_num_heads=1),
    case([f32(B, S, (N + 2 * NK) * H), None, None, None, None, *PROMPT], "packed_qkv"),
    case(decode(Q, K, V), "decode"),
    case(chunk(), "chunk_after_a_cache"),
    case(chunk(), "chunk_local_window", local_window_size=2),
    case(chunk(), "chunk_bidirectional", causal=0),
    case([Q, K, V, None, None, *PROMPT], "local_window", local_window_size=1),
    case([Q, K, V, None, None, *PROMPT], "bidirectional", causal=0),
    case([Q, K, V, None, None, *PROMPT], "softcap", softcap=0.5),
    case([Q, K, V, None, None, *PROMPT], "scale", scale=0.7),
    case([Q, K, V, None, None, *PROMPT], "smooth_softmax", smooth_softmax=1),
    case([Q, K, V, None, None, *PROMPT, None, None, None, None, f32(N)], "head_sink"),
    case([Q, K, V, None, None, *PROMPT, None, None, None, f32(B, N, S, S)], "attention_bias"),
    case([Q, K, V, None, None, *PROMPT, None, None, None, f32(1, 1, S, S)], "attention_bias_broadcast"),
    case([Q, K, V, None, None, *PROMPT], "qk_before_softmax", n_out=4, qk_output=1, softcap=1.0),
    case([*chunk(), None, None, None, f32(1, N, S, 5)], "qk_with_bias", n_out=4, qk_output=1),
    case([Q, K, V, None, None, *PROMPT], "qk_after_softmax", n_out=4, qk_output=2, local_window_size=1),
    case([QR, KR, VR, None, None, *PROMPT, COS, SIN], "rotary", do_rotary=1),
    case([QR, KR, VR, None, None, *PROMPT, COS, SIN], "rotary_interleaved", do_rotary=1, rotary_interleaved=1),
    case([QR, KR, VR, None, None, *PROMPT, COS, SIN, np.array([[1, 2, 3], [0, 1, 2]], np.int64)],
         "rotary_prompt_reads_the_first_position", do_rotary=1),
    case([*decode(QR, KR, VR, head=R), COS, SIN], "rotary_decode", do_rotary=1),
    case([*decode(QR, KR, VR, head=R), COS, SIN, np.array([[5], [1]], np.int64)], "rotary_decode_position_ids",
         do_rotary=1),
    case([Q.astype(np.float16), K.astype(np.float16), V.astype(np.float16), None, None, *PROMPT], "fp16", rtol=3e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params([c for c in CASES if "fp16" not in c.id]))
def test_every_output_shape_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_every_output_shape_matches_onnxruntime(case, opset)


@pytest.mark.parametrize("inputs", [
    pytest.param([Q, K, V, None, None, i32(1, 2), scalar_i32(3)], id="right_padded_prompt"),
    pytest.param([Q[:, :1], K[:, :1], V[:, :1], f32(B, NK, 2, H), f32(B, NK, 2, H), i32(2, 1), scalar_i32(3)],
                 id="ragged_decode"),
    pytest.param([Q[:, :1], K[:, :1], V[:, :1], f32(B, NK, 6, H), f32(B, NK, 6, H), i32(2, 2), scalar_i32(3)],
                 id="decode_into_a_larger_buffer"),
])
def test_specified_rows_match_onnxruntime(inputs: list[np.ndarray | None]) -> None:
    """Where some rows are unspecified (padded queries of a prompt, present rows past an entry's length), the
    output rows of the valid queries and the present rows each entry holds still match onnxruntime."""
    from tests.helpers import one_node_model, run_onnxruntime

    model, feeds = one_node_model(OP, 1, inputs, HEADS, 3, domain=DOMAIN)
    want = run_onnxruntime(model, feeds)
    got = run(DOMAIN, OP, 1, inputs, **HEADS)
    totals = inputs[5].astype(int) + 1  # type: ignore[union-attr]
    seq = inputs[0].shape[1]  # type: ignore[union-attr]
    for b, total in enumerate(totals):
        rows = min(seq, total)
        np.testing.assert_allclose(got[0][b, :rows], want[0][b, :rows], rtol=1e-4, atol=1e-5)
        for k in (1, 2):
            np.testing.assert_allclose(got[k][b, :, :total], want[k][b, :, :total], rtol=1e-6)
    assert [g.shape for g in got[:3]] == [w.shape for w in want]


def _node(inputs: list[list[int] | np.ndarray | None], n_out: int = 1, **attrs: object) -> ShapeCase:
    return shape_case(OP, 1, inputs, {**HEADS, **attrs}, n_out, domain=DOMAIN)


QS, KS = [B, S, N * H], [B, S, NK * H]
REJECTED = [
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3)], num_heads=3, kv_num_heads=2), "groupqueryattention_c1"),
    (_node([QS, [B, S, NK * H + 1], KS, None, None, i32(2, 2), scalar_i32(3)]), "groupqueryattention_c2"),
    (_node([QS, KS, None, None, None, i32(2, 2), scalar_i32(3)]), "groupqueryattention_c2"),
    (_node([[B, S, 7], None, None, None, None, i32(2, 2), scalar_i32(3)]), "groupqueryattention_c2"),
    (_node([QS, KS, KS, [B, NK, 2, H], None, i32(4, 4), scalar_i32(5)], 3), "groupqueryattention_c3"),
    (_node([QS, KS, KS, [B, NK, 2, H + 1], [B, NK, 2, H + 1], i32(4, 4), scalar_i32(5)], 3),
     "groupqueryattention_c3"),
    (_node([QS, KS, KS, None, None, i32(2, 2, 2), scalar_i32(3)]), "groupqueryattention_c4"),
    (_node([QS, KS, KS, None, None, i32(3, 2), scalar_i32(3)]), "groupqueryattention_c5"),
    (_node([[B, 1, N * H], [B, 1, NK * H], [B, 1, NK * H], [B, NK, 1, H], [B, NK, 1, H], i32(4, 4), scalar_i32(5)],
           3), "groupqueryattention_c5"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3)], do_rotary=1), "groupqueryattention_c6"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3), [8, 5], [8, 5]], do_rotary=1),
     "groupqueryattention_c6"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3), [8, 4], [8, 4], np.zeros((B, 1), np.int64)],
           do_rotary=1), "groupqueryattention_c7"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3), None, None, None, [B, N, S, S + 1]]),
     "groupqueryattention_c8"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3), None, None, None, None, [N + 1]]),
     "groupqueryattention_c9"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3)], causal=0, local_window_size=2),
     "groupqueryattention_c10"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3)], sliding_window_cache=1), "groupqueryattention_c11"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3)], k_quant_type="PER_TENSOR"), "groupqueryattention_c12"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3), None, None, None, None, None, None, None, [H]]),
     "groupqueryattention_c13"),
    (_node([QS, KS, KS, [B, NK, 2, H], [B, NK, 2, H], i32(4, 4), scalar_i32(5), None, None, None, None, None, None,
            None, None, None, i32(1, 1, 1)], 3), "groupqueryattention_c14"),
    (_node([QS, KS, KS, [B, NK, 2, H], [B, NK, 2, H], i32(4, 4), scalar_i32(5)], 3), "groupqueryattention_c15"),
    (_node([[1, 2, N * H], [1, 2, NK * H], [1, 2, NK * H], [1, NK, 3, H], [1, NK, 3, H], i32(3), scalar_i32(4)], 3),
     "groupqueryattention_c16"),
    (_node([QS, KS, KS, None, None, i32(2, 2), scalar_i32(3)], qk_output=3), "attr_allowed"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
