"""com.microsoft PackedAttention and PackedMultiHeadAttention: onnxruntime runs them on CUDA only, so the kernels are
checked against onnxruntime's CPU Attention and MultiHeadAttention run on the padded batch (the tokens put back at
their positions, each sequence's length as a right-padding mask_index / key_padding_mask) with the tokens' rows taken
back; the shape formulas against the kernels' outputs; invalid nodes under their constraint ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

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

DOMAIN = "com.microsoft"
f32 = Seeded(41).f32
LENGTHS = [2, 4, 1]
S = 4


def layout(lengths: list[int], seq: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RemovePadding's token_offset, the cumulative lengths, and the tokens' flat padded positions."""
    pos = np.arange(seq)[None, :]
    flat = np.arange(len(lengths))[:, None] * seq + pos
    real = pos < np.array(lengths)[:, None]
    offsets = np.concatenate([flat[real], flat[~real]]).reshape(len(lengths), seq).astype(np.int32)
    return offsets, np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32), flat[real]


def padded(x: np.ndarray, rows: np.ndarray, batch: int, seq: int) -> np.ndarray:
    out = np.zeros((batch * seq, *x.shape[1:]), x.dtype)
    out[rows] = x
    return out.reshape(batch, seq, *x.shape[1:])


def via_padded_batch(op: str, inputs: list[Any], attrs: dict[str, Any], lengths: list[int], seq: int) -> list[Any]:
    """onnxruntime's CPU `op` (Attention or MultiHeadAttention) on the padded batch, the tokens' rows taken back."""
    _, _, rows = layout(lengths, seq)
    batch = len(lengths)
    ends = np.array(lengths, np.int32)
    if op == "Attention":
        x, weights, bias, bias4 = inputs
        node_inputs = [padded(x, rows, batch, seq), weights, bias, ends, None, bias4]
    else:
        q, k, v, bias, bias4 = inputs
        node_inputs = [padded(q, rows, batch, seq), padded(k, rows, batch, seq), padded(v, rows, batch, seq), bias,
                       ends, bias4]
    model, feeds = one_node_model(op, 1, node_inputs, attrs, 1, domain=DOMAIN)
    (out,) = run_onnxruntime(model, feeds)
    return [out.reshape(batch * seq, -1)[rows]]


def pa_case(case_id: str, lengths: list[int] = LENGTHS, heads: int = 2, head: int = 4, v_head: int = 4,
            width: int = 6, bias4: bool = False, rtol: float = 1e-4, **attrs: Any) -> OracleCase:
    offsets, cumulative, _ = layout(lengths, S)
    sizes = [heads * head, heads * head, heads * v_head]
    x, weights, bias = f32(sum(lengths), width), f32(width, sum(sizes)), f32(sum(sizes))
    ab = f32(len(lengths), heads, S, S) if bias4 else None
    given = {"num_heads": heads, **attrs}
    if v_head != head:
        given["qkv_hidden_sizes"] = sizes
    return OracleCase("PackedAttention", given, [x, weights, bias, offsets, cumulative, ab], (1,),
                      oracle=lambda: via_padded_batch("Attention", [x, weights, bias, ab], given, lengths, S),
                      rtol=rtol, id=case_id, domain=DOMAIN)


def pmha_case(case_id: str, lengths: list[int] = LENGTHS, heads: int = 2, head: int = 4, v_head: int = 4,
              packed_qkv: bool = False, with_bias: bool = False, bias4: bool = False, **attrs: Any) -> OracleCase:
    offsets, cumulative, _ = layout(lengths, S)
    tokens = sum(lengths)
    if packed_qkv:
        qkv = f32(tokens, heads, 3, head)
        q, k, v = (qkv[:, :, i].reshape(tokens, -1) for i in range(3))
        node: list[Any] = [qkv, None, None]
    else:
        q, k, v = f32(tokens, heads * head), f32(tokens, heads * head), f32(tokens, heads * v_head)
        node = [q, k, v]
    bias = f32(2 * heads * head + heads * v_head) if with_bias else None
    ab = f32(1, heads, S, S) if bias4 else None
    given = {"num_heads": heads, **attrs}
    return OracleCase("PackedMultiHeadAttention", given, [*node, bias, offsets, cumulative, ab], (1,),
                      oracle=lambda: via_padded_batch("MultiHeadAttention", [q, k, v, bias, ab], given, lengths, S),
                      rtol=1e-4, id=case_id, domain=DOMAIN)


PA_CASES = [
    pa_case("ragged"),
    pa_case("full", lengths=[4, 4]),
    pa_case("empty_sequence", lengths=[3, 0, 2]),
    pa_case("v_hidden", v_head=3),
    pa_case("attention_bias", bias4=True),
    pa_case("scale", scale=0.4),
    pa_case("one_head", heads=1, head=5),
]
PMHA_CASES = [
    pmha_case("ragged"),
    pmha_case("bias", with_bias=True),
    pmha_case("v_hidden", v_head=3, with_bias=True),
    pmha_case("packed_qkv", packed_qkv=True),
    pmha_case("attention_bias", bias4=True),
    pmha_case("scale", scale=2.0, lengths=[1, 3]),
]

test_packed_attention_matches_onnxruntime, test_every_packed_attention_range_is_exercised = oracle_tests(
    "PackedAttention", PA_CASES, domain=DOMAIN)
test_packed_mha_matches_onnxruntime, test_every_packed_mha_range_is_exercised = oracle_tests(
    "PackedMultiHeadAttention", PMHA_CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params(PA_CASES + PMHA_CASES))
def test_shape_formula_matches_the_kernel(case: OracleCase, opset: int) -> None:
    (out,) = run(DOMAIN, case.op, opset, case.inputs, **case.attrs)
    values = {"cumulative_sequence_length": case.inputs[-2].tolist(), "token_offset": case.inputs[-3].reshape(-1)
              .tolist()}
    assert formula_shapes(version(DOMAIN, case.op, opset), case.inputs, case.attrs, values) == [list(out.shape)]


OFFSETS, CUMULATIVE, _ = layout(LENGTHS, S)


def _pa(shapes: list[Any], **attrs: Any) -> ShapeCase:
    return shape_case("PackedAttention", 1, shapes, {"num_heads": 2, **attrs}, 1, domain=DOMAIN)


def _pmha(shapes: list[Any], **attrs: Any) -> ShapeCase:
    return shape_case("PackedMultiHeadAttention", 1, shapes, {"num_heads": 2, **attrs}, 1, domain=DOMAIN)


REJECTED = [
    (_pa([[7, 6], [6, 23], [23], OFFSETS, CUMULATIVE]), "packedattention_c1"),
    (_pa([[7, 6], [6, 24], [24], OFFSETS, CUMULATIVE], qkv_hidden_sizes=[8, 6, 10]), "packedattention_c1"),
    (_pa([[7, 6], [6, 24], [24], OFFSETS, CUMULATIVE[:3]]), "packedattention_c2"),
    (_pa([[7, 6], [6, 24], [24], OFFSETS, CUMULATIVE, [3, 2, 4, 3]]), "packedattention_c3"),
    (_pa([[7, 6], [6, 24], [24], OFFSETS, np.array([0, 2, 6, 8], np.int32)]), "packedattention_c4"),
    (_pmha([[7, 8], [7, 8], None, None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c1"),
    (_pmha([[7, 2, 3, 4], [7, 8], [7, 8], None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c1"),
    (_pmha([[7, 3, 3, 4], None, None, None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c2"),
    (_pmha([[7, 8], [7, 8], [7, 8], [23], OFFSETS, CUMULATIVE]), "packedmultiheadattention_c2"),
    (_pmha([[8, 8], [8, 8], [8, 8], None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c5"),
    (_pmha([[7, 8], [7, 8], [7, 8], None, OFFSETS, CUMULATIVE, [1, 2, 3, 4]]), "packedmultiheadattention_c4"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
