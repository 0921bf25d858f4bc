"""com.microsoft DecoderAttention: onnxruntime runs it on CUDA only, so the kernel is checked against a graph that
onnxruntime's CPU runs: the projections as ai.onnx MatMul / Add / Split on the transposed inputs, then a
com.microsoft MultiHeadAttention node (the caches as its past, or as keys in heads for cross attention; the key
padding mask negated into its key_padding_mask), for every branch of the four flags; the shape formulas against the
kernel's outputs; invalid nodes under their constraint ids."""

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
    oracle_params,
    oracle_tests,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    version,
)

DOMAIN = "com.microsoft"
OP = "DecoderAttention"
f32 = Seeded(43).f32
S, B, N, H, L, C = 3, 2, 2, 4, 5, 2
HID = N * H
QUERY, KEY = f32(S, B, HID), f32(L, B, HID)
QW, KVW, BIAS = f32(HID, HID), f32(HID, 2 * HID), f32(3 * HID)
KC, VC = f32(B, N, C, H), f32(B, N, C, H)


def flags(cross: bool, past: bool, state: bool, masked: bool) -> list[np.ndarray]:
    return [np.array([x]) for x in (cross, past, state, masked)]


def mha_graph_outputs(inputs: list[Any]) -> list[np.ndarray]:
    """The projections in ai.onnx ops, then onnxruntime's CPU MultiHeadAttention over them."""
    query, key, _, _, _, mask, key_cache, value_cache = inputs[:8]
    cross, past, state, masked = (bool(x[0]) for x in inputs[8:12])
    feeds = {"query": query, "key": key, "qw": QW, "kvw": KVW, "bias": BIAS, "kc": key_cache, "vc": value_cache}
    nodes = [
        helper.make_node("Split", ["bias", "bias_split"], ["bq", "bkv"], axis=0),
        helper.make_node("Transpose", ["query"], ["query_b"], perm=[1, 0, 2]),
        helper.make_node("Transpose", ["key"], ["key_b"], perm=[1, 0, 2]),
        helper.make_node("MatMul", ["query_b", "qw"], ["q0"]),
        helper.make_node("Add", ["q0", "bq"], ["q"]),
        helper.make_node("MatMul", ["key_b" if cross else "query_b", "kvw"], ["kv0"]),
        helper.make_node("Add", ["kv0", "bkv"], ["kv"]),
        helper.make_node("Split", ["kv", "kv_split"], ["k", "v"], axis=2),
    ]
    mha_in = ["q", "k", "v", "", "", "", "", ""]
    if past and cross:
        mha_in[1:3] = ["kc", "vc"]
    elif past and state:
        mha_in[6:8] = ["kc", "vc"]
    if masked:
        nodes += [helper.make_node("Not", ["mask"], ["keep"]),
                  helper.make_node("Cast", ["keep"], ["keep_i"], to=TensorProto.INT32)]
        mha_in[4] = "keep_i"
        feeds["mask"] = mask
    nodes += [helper.make_node("MultiHeadAttention", mha_in, ["out_b", "present_k", "present_v"], domain=DOMAIN,
                               num_heads=N, mask_filter_value=-1e30),
              helper.make_node("Transpose", ["out_b"], ["out"], perm=[1, 0, 2])]
    inits = [helper.make_tensor("bias_split", TensorProto.INT64, [2], [HID, 2 * HID]),
             helper.make_tensor("kv_split", TensorProto.INT64, [2], [HID, HID])]
    used = {name for node in nodes for name in node.input}
    feeds = {k: v for k, v in feeds.items() if k in used}
    graph = helper.make_graph(
        nodes, "decoder", [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), list(v.shape))
                           for k, v in feeds.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("out", "present_k", "present_v")],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(DOMAIN, 1)])
    out, pk, pv = run_onnxruntime(model, feeds)
    if past and cross:  # onnxruntime's MultiHeadAttention gives no present for keys in heads: the caches are
        pk, pv = key_cache, value_cache
    return [out, pk, pv]


def case(cross: bool, past: bool, state: bool, mask: np.ndarray | None, case_id: str) -> OracleCase:
    inputs: list[Any] = [QUERY, KEY, QW, KVW, BIAS, mask, KC, VC, *flags(cross, past, state, mask is not None)]
    return OracleCase(OP, {"num_heads": N}, inputs, (1,), n_out=3, oracle=lambda: mha_graph_outputs(inputs),
                      rtol=1e-4, id=case_id, domain=DOMAIN)


def padding(length: int) -> np.ndarray:
    mask = np.zeros((B, length), bool)
    mask[0, -1] = mask[1, 1:3] = True
    return mask


CASES = [
    case(False, False, False, None, "self"),
    case(False, False, True, None, "self_state_without_past"),
    case(False, True, False, None, "self_past_without_state"),
    case(False, True, True, None, "self_with_cache"),
    case(True, False, False, None, "cross"),
    case(True, False, True, None, "cross_state_without_past"),
    case(True, True, True, None, "cross_from_cache"),
    case(False, False, False, padding(S), "self_padding"),
    case(False, True, True, padding(C + S), "self_cache_padding"),
    case(True, False, False, padding(L), "cross_padding"),
    case(True, True, True, padding(C), "cross_cache_padding"),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_shape_formulas_match_the_kernel(case: OracleCase, opset: int) -> None:
    outs = run(DOMAIN, OP, opset, case.inputs, **case.attrs)
    names = ["static_kv", "use_past", "has_layer_state", "has_key_padding_mask"]
    values = {n: [int(x[0])] for n, x in zip(names, case.inputs[8:12], strict=True)}
    assert formula_shapes(version(DOMAIN, OP, opset), case.inputs, case.attrs, values) == [list(o.shape) for o in outs]


def test_mask_filter_value_is_not_read() -> None:
    inputs = CASES[7].inputs
    np.testing.assert_array_equal(run(DOMAIN, OP, 1, inputs, num_heads=N)[0],
                                  run(DOMAIN, OP, 1, inputs, num_heads=N, mask_filter_value=-1.0)[0])


def _node(shapes: list[Any], flag_values: tuple[bool, bool, bool, bool] = (False, False, False, False),
          **attrs: Any) -> ShapeCase:
    return shape_case(OP, 1, [*shapes, *flags(*flag_values)], {"num_heads": N, **attrs}, 3, domain=DOMAIN)


QS, KS, CS = [S, B, HID], [L, B, HID], [B, N, C, H]
OK = [QS, KS, [HID, HID], [HID, 2 * HID], [3 * HID], None, CS, CS]
REJECTED = [
    (_node([QS, [L, B + 1, HID], *OK[2:]]), "decoderattention_c1"),
    (_node(OK, num_heads=3), "decoderattention_c1"),
    (_node([*OK[:3], [HID, HID], *OK[4:]]), "decoderattention_c2"),
    (_node([*OK[:6], CS, [B, N, C + 1, H]]), "decoderattention_c3"),
    (_node(OK, (True, True, False, False)), "decoderattention_c5"),
    (_node(OK, (False, False, False, True)), "decoderattention_c6"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
