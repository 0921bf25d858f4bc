"""com.microsoft DecoderMaskedMultiHeadAttention: the kernel and every output's shape formula against onnxruntime's
CPU kernel (self attention into shared buffers with and without bias, masks, attention_bias, scale and filter
value, qk; beams reading their past rows through the cache indirection; cross attention over keys in heads, its qk),
the packed QKV form by hand (onnxruntime's CPU kernel fails on it), and invalid nodes under their constraint ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    formula_shapes,
    one_node_model,
    oracle_params,
    oracle_tests,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    version,
)
from tests.helpers.ort_attention import i32

DOMAIN = "com.microsoft"
OP = "DecoderMaskedMultiHeadAttention"
f32 = Seeded(37).f32
B, N, H, P, M = 4, 2, 4, 2, 5
HID = N * H
Q, K, V = f32(B, 1, HID), f32(B, 1, HID), f32(B, 1, HID)
PK, PV = f32(B, N, M, H), f32(B, N, M, H)
PAST = i32(P)
SHARED = {"num_heads": N, "past_present_share_buffer": 1}
CI = np.array([[[1, 0, 1, 0, 0], [0, 0, 1, 1, 0]], [[0, 1, 0, 0, 0], [1, 1, 1, 0, 0]]], np.int32)  # 2 groups, 2 beams


def ort_outputs(inputs: list[np.ndarray | None], attrs: dict[str, Any], n_out: int) -> list[np.ndarray]:
    """onnxruntime's CPU outputs; qk is typed (its type constraint is free), and cross attention asks for qk alone
    (onnxruntime takes any present output as self attention)."""
    model, feeds = one_node_model(OP, 1, inputs, attrs, n_out, domain=DOMAIN)
    node, graph = model.graph.node[0], model.graph
    if n_out == 4:
        graph.output[3].CopyFrom(helper.make_tensor_value_info(graph.output[3].name, TensorProto.FLOAT, None))
        key = inputs[1]
        if key is not None and key.ndim == 4:
            node.output[1] = node.output[2] = ""
            del graph.output[1:3]
            out, qk = run_onnxruntime(model, feeds)
            return [out, key, inputs[2], qk]
    return run_onnxruntime(model, feeds)


def case(inputs: list[np.ndarray | None], case_id: str, n_out: int = 3, **attrs: Any) -> OracleCase:
    given = {**SHARED, **attrs}
    n = n_out
    return OracleCase(OP, given, inputs, (1,), n_out=n, oracle=lambda: ort_outputs(inputs, given, n)[:n],
                      rtol=1e-4, id=case_id, domain=DOMAIN)


def self_inputs(mask: np.ndarray | None = None, bias: np.ndarray | None = None, qkv_bias: np.ndarray | None = None,
                past: int = P, beams: int = 1) -> list[np.ndarray | None]:
    tail = [i32(beams), CI] if beams > 1 else [None, None]
    return [Q, K, V, mask, bias, PK, PV, i32(past), *tail, qkv_bias]


CROSS_K, CROSS_V = f32(B, N, 3, H), f32(B, N, 3, H)
CROSS: list[np.ndarray | None] = [Q, CROSS_K, CROSS_V]
CASES = [
    case(self_inputs(), "self"),
    case(self_inputs(past=0), "self_first_step"),
    case(self_inputs(past=M - 1), "self_fills_the_buffer"),
    case(self_inputs(qkv_bias=f32(3 * HID)), "self_qkv_bias"),
    case(self_inputs(mask=np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]], np.int32)), "self_mask"),
    case(self_inputs(mask=np.array([[0, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]], np.int32)), "self_mask_filter",
         mask_filter_value=-3.0),
    case(self_inputs(bias=f32(B, N, 1, P + 1)), "self_attention_bias"),
    case(self_inputs(bias=f32(1, 1, 1, P + 1)), "self_attention_bias_broadcast"),
    case(self_inputs(), "self_scale", scale=0.3),
    case(self_inputs(mask=np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]], np.int32),
                     bias=f32(B, N, 1, P + 1)), "self_qk", n_out=4, output_qk=1),
    case(self_inputs(beams=2), "beams"),
    case(self_inputs(beams=2, qkv_bias=f32(3 * HID), bias=f32(1, N, 1, P + 1)), "beams_bias"),
    case(self_inputs(beams=2, mask=np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]], np.int32)),
         "beams_mask"),
    case(self_inputs(beams=2), "beams_qk", n_out=4, output_qk=1),
    case(CROSS, "cross", n_out=1, past_present_share_buffer=0),
    case([*CROSS, np.array([[1, 0, 1], [0, 1, 1], [1, 1, 1], [0, 0, 1]], np.int32), *[None] * 6, f32(3 * HID)],
         "cross_mask_and_query_bias", n_out=1, past_present_share_buffer=0),
    case(CROSS, "cross_qk", n_out=4, output_qk=1, past_present_share_buffer=0),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_every_output_shape_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    values = {"past_sequence_length": case.inputs[7].reshape(-1).tolist()} if len(case.inputs) > 7 \
        and case.inputs[7] is not None else {}
    mine = formula_shapes(version(DOMAIN, OP, opset), case.inputs, case.attrs, values)
    theirs = [list(o.shape) for o in ort_outputs(case.inputs, case.attrs, case.n_out)]
    assert mine[:case.n_out] == theirs


def test_beams_read_their_past_rows_through_the_cache_indirection() -> None:
    """Beams are self attention over a past whose rows t < past_sequence_length come from the source beams."""
    with_beams = run(DOMAIN, OP, 1, self_inputs(beams=2), **SHARED)
    gathered_k, gathered_v = PK.copy(), PV.copy()
    for row in range(B):
        group, beam = divmod(row, 2)
        for t in range(P):
            gathered_k[row, :, t] = PK[group * 2 + CI[group, beam, t], :, t]
            gathered_v[row, :, t] = PV[group * 2 + CI[group, beam, t], :, t]
    plain = run(DOMAIN, OP, 1, [Q, K, V, None, None, gathered_k, gathered_v, PAST], **SHARED)
    np.testing.assert_allclose(with_beams[0], plain[0], rtol=1e-6)
    np.testing.assert_array_equal(with_beams[1][:, :, :P], PK[:, :, :P])  # each beam keeps its own rows


def test_packed_qkv_is_the_three_parts() -> None:
    packed = run(DOMAIN, OP, 1, [np.concatenate([Q, K, V], axis=2), None, None, None, None, PK, PV, PAST], **SHARED)
    split = run(DOMAIN, OP, 1, [Q, K, V, None, None, PK, PV, PAST], **SHARED)
    for p, s in zip(packed, split, strict=True):
        np.testing.assert_array_equal(p, s)


def _node(inputs: list[list[int] | np.ndarray | None], n_out: int = 3, **attrs: object) -> ShapeCase:
    return shape_case(OP, 1, inputs, {**SHARED, **attrs}, n_out, domain=DOMAIN)


QS, PS = [B, 1, HID], [B, N, M, H]
REJECTED = [
    (_node([[B, 2, HID], [B, 2, HID], [B, 2, HID], None, None, PS, PS, i32(P)]), "decodermaskedmultiheadattention_c1"),
    (_node([QS, [B, 1, HID + 1], QS, None, None, PS, PS, i32(P)]), "decodermaskedmultiheadattention_c1"),
    (_node([QS, QS, QS, None, None, PS, [B, N, M, H + 1], i32(P)]), "decodermaskedmultiheadattention_c2"),
    (_node([QS, QS, QS, None, None, PS, PS, i32(M)]), "decodermaskedmultiheadattention_c3"),
    (_node([QS, QS, QS, None, None, PS, PS, i32(P), None, None, [HID]]), "decodermaskedmultiheadattention_c4"),
    (_node([QS, QS, QS, None, None, PS, PS, i32(P), i32(2), [B, 2, M]]), "decodermaskedmultiheadattention_c5"),
    (_node([QS, QS, QS, None, None, PS, PS, None]), "decodermaskedmultiheadattention_c6"),
    (_node([QS, QS, QS, None, None, PS, PS, i32(P)], past_present_share_buffer=0),
     "decodermaskedmultiheadattention_c6"),
    (_node([QS, QS, QS, np.ones((B, M), np.int32), None, PS, PS, i32(P)]), "decodermaskedmultiheadattention_c7"),
    (_node([QS, QS, QS, None, [B, N, 1, M], PS, PS, i32(P)]), "decodermaskedmultiheadattention_c8"),
    (_node([QS, [B, N, 3, H], [B, N, 3, H], None, [B, N, 1, 3]], 1), "decodermaskedmultiheadattention_c8"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
