"""com.microsoft DecoderMaskedSelfAttention: onnxruntime runs it on CUDA only, so the kernel is checked against a graph
onnxruntime's CPU runs: the projection as ai.onnx MatMul / Split, then com.microsoft DecoderMaskedMultiHeadAttention
over the shared buffer with its keys put in plain order (the op's past holds them reordered, x = 4 for float); with
bias, masks, attention_bias, scale and beams; the reordered layout itself on a worked buffer; the shape formulas
against the kernel's outputs; invalid nodes under their constraint ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from conformance.kernels.com_microsoft.decoder_masked_self_attention import keys_plain, keys_reordered
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    formula_shapes,
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
OP = "DecoderMaskedSelfAttention"
f32 = Seeded(53).f32
B, N, H, P, M, W = 4, 2, 8, 2, 5, 6
HID = N * H
X, WEIGHTS, BIAS = f32(B, 1, W), f32(W, 3 * HID), f32(3 * HID)
PAST = f32(2, B, N, M, H)  # as the op holds it: keys reordered
CI = np.array([[[1, 0, 1, 0, 0], [0, 0, 1, 1, 0]], [[0, 1, 0, 0, 0], [1, 1, 1, 0, 0]]], np.int32)
SHARED = {"num_heads": N, "past_present_share_buffer": 1}


def dmmha_graph_outputs(inputs: list[Any], attrs: dict[str, Any]) -> list[np.ndarray]:
    """onnxruntime's CPU: MatMul and Split project, DecoderMaskedMultiHeadAttention attends over the plain keys; the
    present keys are reordered back."""
    x, weights, bias, mask, past, attention_bias, past_length = inputs[:7]
    beams, indirection = (inputs[7], inputs[8]) if len(inputs) > 8 else (None, None)
    feeds = {"x": x, "weights": weights, "bias": bias, "past_key": keys_plain(past[0], 4), "past_value": past[1],
             "past_length": past_length, "mask": mask, "attention_bias": attention_bias, "beams": beams,
             "indirection": indirection}
    order = ["q", "k", "v", "mask", "attention_bias", "past_key", "past_value", "past_length", "beams", "indirection",
             "bias"]
    node_inputs = [n if n in "qkv" or feeds.get(n) is not None else "" for n in order]
    feeds = {k: v for k, v in feeds.items() if v is not None}
    nodes = [helper.make_node("MatMul", ["x", "weights"], ["qkv"]),
             helper.make_node("Split", ["qkv", "split"], ["q", "k", "v"], axis=2),
             helper.make_node("DecoderMaskedMultiHeadAttention", node_inputs, ["out", "present_key", "present_value"],
                              domain=DOMAIN, **{k: v for k, v in attrs.items() if k != "do_rotary"})]
    graph = helper.make_graph(
        nodes, "dmsa", [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), list(v.shape))
                        for k, v in feeds.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("out", "present_key", "present_value")],
        initializer=[helper.make_tensor("split", TensorProto.INT64, [3], [HID] * 3)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(DOMAIN, 1)])
    out, present_key, present_value = run_onnxruntime(model, feeds)
    return [out, np.stack([keys_reordered(present_key, 4), present_value])]


def case(case_id: str, mask: np.ndarray | None = None, attention_bias: np.ndarray | None = None, past: int = P,
         beams: bool = False, **attrs: Any) -> OracleCase:
    inputs: list[Any] = [X, WEIGHTS, BIAS, mask, PAST, attention_bias, i32(past)]
    if beams:
        inputs += [i32(2), CI]
    given = {**SHARED, **attrs}
    return OracleCase(OP, given, inputs, (1,), n_out=2, oracle=lambda: dmmha_graph_outputs(inputs, given), rtol=1e-4,
                      id=case_id, domain=DOMAIN)


MASK = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]], np.int32)
CASES = [
    case("step"),
    case("first_step", past=0),
    case("fills_the_buffer", past=M - 1),
    case("mask", mask=MASK),
    case("mask_filter_value", mask=MASK, mask_filter_value=-2.0),
    case("attention_bias", attention_bias=f32(B, N, 1, P + 1)),
    case("scale", scale=0.3),
    case("beams", beams=True),
    case("beams_mask_and_bias", mask=MASK, attention_bias=f32(1, N, 1, P + 1), beams=True),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_the_key_half_is_reordered() -> None:
    """Key element (b, n, s, 4 * c + i) of the plain view sits at (b, n, c, s, i) of the (.., head / 4, max, 4) buffer
    (float: x = 4); the new key goes to row past_sequence_length of the plain view, the values stay plain."""
    plain = np.arange(1 * 1 * 3 * 8, dtype=np.float32).reshape(1, 1, 3, 8)
    stored = keys_reordered(plain, 4)
    assert stored.reshape(1, 1, 2, 3, 4)[0, 0, 1, 2, 3] == plain[0, 0, 2, 7]
    np.testing.assert_array_equal(keys_plain(stored, 4), plain)
    _, present = run(DOMAIN, OP, 1, [X, WEIGHTS, BIAS, None, PAST, None, i32(P)], **SHARED)
    k_new = (X @ WEIGHTS + BIAS)[:, 0, HID:2 * HID].reshape(B, N, H)
    np.testing.assert_allclose(keys_plain(present[0], 4)[:, :, P], k_new, rtol=1e-5)
    np.testing.assert_array_equal(present[1][:, :, :P], PAST[1][:, :, :P])


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_shape_formulas_match_the_kernel(case: OracleCase, opset: int) -> None:
    outs = run(DOMAIN, OP, opset, case.inputs, **case.attrs)
    values = {"past_sequence_length": case.inputs[6].tolist()}
    assert formula_shapes(version(DOMAIN, OP, opset), case.inputs, case.attrs, values) == [list(o.shape) for o in outs]


def _node(shapes: list[Any], **attrs: Any) -> ShapeCase:
    return shape_case(OP, 1, shapes, {**SHARED, **attrs}, 2, domain=DOMAIN)


XS, PS = [B, 1, W], [2, B, N, M, H]
REJECTED = [
    (_node([[B, 2, W], [W, 3 * HID], [3 * HID], None, PS, None, i32(P)]), "decodermaskedselfattention_c1"),
    (_node([XS, [W, 3 * HID], [3 * HID + 3], None, PS, None, i32(P)]), "decodermaskedselfattention_c1"),
    (_node([XS, [W, 3 * HID], [3 * HID], None, [2, B, N + 1, M, H], None, i32(P)]), "decodermaskedselfattention_c2"),
    (_node([XS, [W, 3 * HID], [3 * HID], None, PS, None, i32(M)]), "decodermaskedselfattention_c3"),
    (_node([XS, [W, 3 * HID], [3 * HID], None, PS, None, i32(P)], past_present_share_buffer=0),
     "decodermaskedselfattention_c4"),
    (_node([XS, [W, 3 * HID], [3 * HID], np.ones((B, M), np.int32), PS, None, i32(P)]),
     "decodermaskedselfattention_c5"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
