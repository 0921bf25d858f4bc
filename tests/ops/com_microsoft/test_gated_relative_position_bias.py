"""com.microsoft GatedRelativePositionBias: onnxruntime runs it on CUDA only, so the kernel is checked against WavLM's
gate written as an ai.onnx graph (Add, Reshape, Transpose, MatMul, Split, ReduceSum, Sigmoid; ScatterND for packed
tokens) that onnxruntime's CPU runs; the shape formula against the kernel's outputs; invalid nodes under their
constraint ids."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

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
OP = "GatedRelativePositionBias"
f32 = Seeded(29).f32


def _const(name: str, value: object) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array(value, dtype=np.int64)))


def gate_graph_outputs(inputs: list[np.ndarray | None], heads: int) -> list[np.ndarray]:
    """The gated bias as an ai.onnx graph: packed tokens scattered onto query_bias rows first (with token_offset)."""
    query, weight, token_offset = inputs[0], inputs[3], inputs[6]
    assert query is not None and weight is not None
    hidden, d = query.shape[-1], weight.shape[1]
    if token_offset is None:
        batch, seq = query.shape[:2]
        nodes = [helper.make_node("Add", ["query", "query_bias"], ["q"])]
    else:
        batch, seq = token_offset.shape
        count = query.shape[0]
        nodes = [
            _const("rows", [batch * seq, hidden]),
            helper.make_node("Expand", ["query_bias", "rows"], ["padded"]),
            helper.make_node("Add", ["query", "query_bias"], ["tokens"]),
            _const("starts", [0]), _const("ends", [count]), _const("column", [-1, 1]), _const("one_axis", [1]),
            helper.make_node("Flatten", ["token_offset"], ["flat_offsets"], axis=0),
            helper.make_node("Cast", ["flat_offsets"], ["offsets64"], to=TensorProto.INT64),
            helper.make_node("Slice", ["offsets64", "starts", "ends", "one_axis"], ["used"]),
            helper.make_node("Reshape", ["used", "column"], ["indices"]),
            helper.make_node("ScatterND", ["padded", "indices", "tokens"], ["q"]),
        ]
    nodes += [
        _const("bsnh", [batch, seq, heads, hidden // heads]),
        helper.make_node("Reshape", ["q", "bsnh"], ["q4"]),
        helper.make_node("Transpose", ["q4"], ["qh"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qh", "weight"], ["g0"]),
        helper.make_node("Add", ["g0", "bias"], ["g"]),
        _const("halves", [d // 2, d // 2]), _const("last", [-1]),
        helper.make_node("Split", ["g", "halves"], ["gu", "gr"], axis=-1),
        helper.make_node("ReduceSum", ["gu", "last"], ["su"], keepdims=1),
        helper.make_node("ReduceSum", ["gr", "last"], ["sr"], keepdims=1),
        helper.make_node("Sigmoid", ["su"], ["u"]),
        helper.make_node("Sigmoid", ["sr"], ["r"]),
        helper.make_node("Mul", ["r", "eco_a"], ["r_a"]),
        helper.make_node("Sub", ["r_a", "one_f"], ["r_a1"]),
        helper.make_node("Mul", ["u", "r_a1"], ["u_r"]),
        helper.make_node("Add", ["u_r", "two_f"], ["gate"]),
        helper.make_node("Mul", ["gate", "rel_pos"], ["out"]),
    ]
    elem = helper.np_dtype_to_tensor_dtype(query.dtype)
    scalars = [numpy_helper.from_array(np.array(1.0, query.dtype), "one_f"),
               numpy_helper.from_array(np.array(2.0, query.dtype), "two_f")]
    names = ["query", "query_bias", "rel_pos", "weight", "bias", "eco_a", "token_offset"]
    feeds = {n: x for n, x in zip(names, inputs, strict=True) if x is not None}
    graph = helper.make_graph(nodes, "gate", [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(
        x.dtype), list(x.shape)) for n, x in feeds.items()], [helper.make_tensor_value_info("out", elem, None)],
        initializer=scalars)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return run_onnxruntime(model, feeds)


def case(inputs: list[np.ndarray | None], heads: int, case_id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, {"num_heads": heads}, inputs, (1,), oracle=lambda: gate_graph_outputs(inputs, heads),
                      rtol=rtol, id=case_id, domain=DOMAIN)


def padded(batch: int, seq: int, heads: int, head: int, d: int) -> list[np.ndarray | None]:
    return [f32(batch, seq, heads * head), f32(heads * head), f32(1, heads, seq, seq), f32(head, d), f32(d),
            f32(1, heads, 1, 1), None]


def packed(count: int, offsets: np.ndarray, heads: int, head: int, d: int) -> list[np.ndarray | None]:
    seq = offsets.shape[1]
    return [f32(count, heads * head), f32(heads * head), f32(1, heads, seq, seq), f32(head, d), f32(d),
            f32(1, heads, 1, 1), offsets.astype(np.int32)]


RIGHT_PADDED = np.array([[0, 1, 2, 6], [3, 4, 5, 7]])  # 3 tokens in each of 2 sequences of 4, then the padding
CASES = [
    case(padded(2, 3, 2, 4, 8), 2, "wavlm_like"),
    case(padded(1, 5, 1, 3, 2), 1, "one_head_d2"),
    case(padded(3, 2, 4, 2, 6), 4, "four_heads"),
    case(packed(6, RIGHT_PADDED, 2, 3, 4), 2, "packed_right_padded"),
    case(packed(8, np.array([[7, 0, 5, 2], [1, 6, 3, 4]]), 2, 2, 4), 2, "packed_any_order_no_padding"),
    case([None if x is None else x.astype(np.float16) for x in padded(2, 3, 2, 4, 8)], 2, "fp16", rtol=3e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_gate_of_a_zero_projection() -> None:
    """weight and bias 0: u = r = 1/2, so the gate is 1/2 * (eco_a / 2 - 1) + 2 for every token."""
    heads, seq = 2, 3
    eco_a = np.array([0.0, 4.0], np.float32).reshape(1, heads, 1, 1)
    rel = f32(1, heads, seq, seq)
    inputs = [f32(1, seq, heads * 2), f32(heads * 2), rel, np.zeros((2, 4), np.float32), np.zeros(4, np.float32),
              eco_a, None]
    (out,) = run(DOMAIN, OP, 1, inputs, num_heads=heads)
    np.testing.assert_allclose(out[0, 0], 1.5 * rel[0, 0], rtol=1e-6)
    np.testing.assert_allclose(out[0, 1], 2.5 * rel[0, 1], rtol=1e-6)


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_shape_formula_matches_the_kernel(case: OracleCase, opset: int) -> None:
    (out,) = run(DOMAIN, OP, opset, case.inputs, **case.attrs)
    assert formula_shapes(version(DOMAIN, OP, opset), case.inputs, case.attrs) == [list(out.shape)]


def _node(shapes: list[list[int] | np.ndarray | None], heads: int = 2) -> ShapeCase:
    return shape_case(OP, 1, shapes, {"num_heads": heads}, 1, domain=DOMAIN)


OK: list[list[int] | np.ndarray | None] = [[2, 3, 8], [8], [1, 2, 3, 3], [4, 6], [6], [1, 2, 1, 1]]
REJECTED = [
    (_node([[6, 8], *OK[1:]]), "gatedrelativepositionbias_c1"),
    (_node([[7, 8], *OK[1:], np.zeros((2, 3), np.int32)]), "gatedrelativepositionbias_c1"),
    (_node(OK, heads=3), "gatedrelativepositionbias_c2"),
    (_node([OK[0], [6], *OK[2:]]), "gatedrelativepositionbias_c2"),
    (_node([*OK[:3], [4, 5], [5], OK[5]]), "gatedrelativepositionbias_c3"),
    (_node([*OK[:3], [3, 6], *OK[4:]]), "gatedrelativepositionbias_c3"),
    (_node([*OK[:2], [1, 2, 3, 4], *OK[3:]]), "gatedrelativepositionbias_c4"),
    (_node([*OK[:5], [1, 1, 1, 1]]), "gatedrelativepositionbias_c4"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
