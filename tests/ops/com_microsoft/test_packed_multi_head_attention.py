"""com.microsoft PackedMultiHeadAttention: onnxruntime runs it on CUDA only, so the kernel is checked against
onnxruntime's CPU MultiHeadAttention run on the padded batch (the tokens put back at their positions, each sequence's
length as a right-padding key_padding_mask) with the tokens' rows taken back; the shape formula against the kernel's
outputs; invalid nodes under their constraint ids."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    formula_shapes,
    oracle_params,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    version,
)
from tests.helpers.ort_attention import layout, via_padded_batch

DOMAIN = "com.microsoft"
OP = "PackedMultiHeadAttention"
f32 = Seeded(47).f32
LENGTHS = [2, 4, 1]
S = 4


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
    return OracleCase(OP, given, [*node, bias, offsets, cumulative, ab], (1,),
                      oracle=lambda: via_padded_batch("MultiHeadAttention", [q, k, v, bias, ab], given, lengths, S),
                      rtol=1e-4, id=case_id, domain=DOMAIN)


CASES = [
    pmha_case("ragged"),
    pmha_case("bias", with_bias=True),
    pmha_case("v_hidden", v_head=3, with_bias=True),
    pmha_case("packed_qkv", packed_qkv=True),
    pmha_case("attention_bias", bias4=True),
    pmha_case("scale", scale=2.0, lengths=[1, 3]),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_shape_formula_matches_the_kernel(case: OracleCase, opset: int) -> None:
    (out,) = run(DOMAIN, OP, opset, case.inputs, **case.attrs)
    values = {"cumulative_sequence_length": case.inputs[-2].tolist(), "token_offset": case.inputs[-3].reshape(-1)
              .tolist()}
    assert formula_shapes(version(DOMAIN, OP, opset), case.inputs, case.attrs, values) == [list(out.shape)]


OFFSETS, CUMULATIVE, _ = layout(LENGTHS, S)


def _node(shapes: list[Any], **attrs: Any) -> ShapeCase:
    return shape_case(OP, 1, shapes, {"num_heads": 2, **attrs}, 1, domain=DOMAIN)


REJECTED = [
    (_node([[7, 8], [7, 8], None, None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c1"),
    (_node([[7, 2, 3, 4], [7, 8], [7, 8], None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c1"),
    (_node([[7, 3, 3, 4], None, None, None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c2"),
    (_node([[7, 8], [7, 8], [7, 8], [23], OFFSETS, CUMULATIVE]), "packedmultiheadattention_c2"),
    (_node([[8, 8], [8, 8], [8, 8], None, OFFSETS, CUMULATIVE]), "packedmultiheadattention_c5"),
    (_node([[7, 8], [7, 8], [7, 8], None, OFFSETS, CUMULATIVE, [1, 2, 3, 4]]), "packedmultiheadattention_c4"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
