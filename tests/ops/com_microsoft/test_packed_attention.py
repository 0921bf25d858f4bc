"""com.microsoft PackedAttention: onnxruntime runs it on CUDA only, so the kernel is checked against onnxruntime's CPU
Attention run on the padded batch (the tokens put back at their positions, each sequence's length as a right-padding
mask_index) with the tokens' rows taken back; the shape formula against the kernel's outputs; invalid nodes under
their constraint ids."""

from __future__ import annotations

from typing import Any

import numpy as np
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
OP = "PackedAttention"
f32 = Seeded(41).f32
LENGTHS = [2, 4, 1]
S = 4


def pa_case(case_id: str, lengths: list[int] = LENGTHS, heads: int = 2, head: int = 4, v_head: int = 4,
            width: int = 6, bias4: bool = False, rtol: float = 1e-4, **attrs: Any) -> OracleCase:
    offsets, cumulative, _ = layout(lengths, S)
    sizes = [heads * head, heads * head, heads * v_head]
    x, weights, bias = f32(sum(lengths), width), f32(width, sum(sizes)), f32(sum(sizes))
    ab = f32(len(lengths), heads, S, S) if bias4 else None
    given = {"num_heads": heads, **attrs}
    if v_head != head:
        given["qkv_hidden_sizes"] = sizes
    return OracleCase(OP, given, [x, weights, bias, offsets, cumulative, ab], (1,),
                      oracle=lambda: via_padded_batch("Attention", [x, weights, bias, ab], given, lengths, S),
                      rtol=rtol, id=case_id, domain=DOMAIN)


CASES = [
    pa_case("ragged"),
    pa_case("full", lengths=[4, 4]),
    pa_case("empty_sequence", lengths=[3, 0, 2]),
    pa_case("v_hidden", v_head=3),
    pa_case("attention_bias", bias4=True),
    pa_case("scale", scale=0.4),
    pa_case("one_head", heads=1, head=5),
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
    (_node([[7, 6], [6, 23], [23], OFFSETS, CUMULATIVE]), "packedattention_c1"),
    (_node([[7, 6], [6, 24], [24], OFFSETS, CUMULATIVE], qkv_hidden_sizes=[8, 6, 10]), "packedattention_c1"),
    (_node([[7, 6], [6, 24], [24], OFFSETS, CUMULATIVE[:3]]), "packedattention_c2"),
    (_node([[7, 6], [6, 24], [24], OFFSETS, CUMULATIVE, [3, 2, 4, 3]]), "packedattention_c3"),
    (_node([[7, 6], [6, 24], [24], OFFSETS, np.array([0, 2, 6, 8], np.int32)]), "packedattention_c4"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
