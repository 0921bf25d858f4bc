"""com.microsoft RelativePositionBias: onnxruntime runs it on CUDA only, so the kernel is checked against the same
T5 bucketing written as an ai.onnx graph (Range, Abs, Log, Cast, Where, Gather) that onnxruntime's CPU runs, and
against a bucket table worked out by hand; the shape formula against the kernel's outputs; invalid nodes under their
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
OP = "RelativePositionBias"
f32 = Seeded(23).f32


def _const(name: str, value: object, dtype: type = np.int64) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array(value, dtype=dtype)))


def t5_graph_outputs(table: np.ndarray, length: int, bidirectional: int, max_distance: int) -> list[np.ndarray]:
    """T5's bucketed bias as an ai.onnx graph run by onnxruntime: buckets from the relative positions, then the
    (num_heads, num_buckets) view of the column-major table gathered at them."""
    buckets, heads = table.shape
    span = buckets // 2 if bidirectional else buckets
    exact = span // 2
    nodes = [
        _const("zero", 0), _const("one", 1), _const("axis0", [0]), _const("axis1", [1]),
        helper.make_node("Range", ["zero", "qlen", "one"], ["q"]),
        helper.make_node("Range", ["zero", "klen", "one"], ["k"]),
        helper.make_node("Unsqueeze", ["q", "axis1"], ["q2"]),
        helper.make_node("Unsqueeze", ["k", "axis0"], ["k2"]),
        helper.make_node("Sub", ["k2", "q2"], ["rel"]),
        _const("span", span), _const("exact", exact), _const("last", span - 1),
        _const("exact_f", exact, np.float32), _const("max_f", max_distance, np.float32),
        _const("spread_f", span - exact, np.float32), _const("zero_f", 0.0, np.float32),
    ]
    if bidirectional:
        nodes += [helper.make_node("Greater", ["rel", "zero"], ["ahead"]),
                  helper.make_node("Where", ["ahead", "span", "zero"], ["base"]),
                  helper.make_node("Abs", ["rel"], ["n"])]
    else:
        nodes += [helper.make_node("Neg", ["rel"], ["back"]), helper.make_node("Max", ["back", "zero"], ["n"]),
                  helper.make_node("Mul", ["n", "zero"], ["base"])]
    nodes += [
        helper.make_node("Cast", ["n"], ["nf"], to=TensorProto.FLOAT),
        helper.make_node("Div", ["nf", "exact_f"], ["ratio_n"]),
        helper.make_node("Log", ["ratio_n"], ["log_n"]),
        helper.make_node("Div", ["max_f", "exact_f"], ["ratio_max"]),
        helper.make_node("Log", ["ratio_max"], ["log_max"]),
        helper.make_node("Div", ["log_n", "log_max"], ["frac"]),
        helper.make_node("Less", ["n", "exact"], ["near"]),
        helper.make_node("Where", ["near", "zero_f", "frac"], ["frac_far"]),
        helper.make_node("Mul", ["frac_far", "spread_f"], ["steps_f"]),
        helper.make_node("Cast", ["steps_f"], ["steps"], to=TensorProto.INT64),
        helper.make_node("Add", ["steps", "exact"], ["far"]),
        helper.make_node("Min", ["far", "last"], ["far_capped"]),
        helper.make_node("Where", ["near", "n", "far_capped"], ["offset"]),
        helper.make_node("Add", ["base", "offset"], ["bucket"]),
        _const("heads_by_buckets", [heads, buckets]),
        helper.make_node("Reshape", ["table", "heads_by_buckets"], ["by_head"]),
        helper.make_node("Gather", ["by_head", "bucket"], ["gathered"], axis=1),
        helper.make_node("Unsqueeze", ["gathered", "axis0"], ["out"]),
    ]
    elem = helper.np_dtype_to_tensor_dtype(table.dtype)
    graph = helper.make_graph(nodes, "t5_bias", [
        helper.make_tensor_value_info("table", elem, list(table.shape)),
        helper.make_tensor_value_info("qlen", TensorProto.INT64, []),
        helper.make_tensor_value_info("klen", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("out", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    length_value = np.array(length, dtype=np.int64)
    return run_onnxruntime(model, {"table": table, "qlen": length_value, "klen": length_value})


def case(table: np.ndarray, length: int, bidirectional: int, max_distance: int, case_id: str,
         rtol: float = 1e-6) -> OracleCase:
    n = np.array(length, dtype=np.int64)
    return OracleCase(OP, {"is_bidirectional": bidirectional, "max_distance": max_distance}, [table, n, n], (1,),
                      oracle=lambda: t5_graph_outputs(table, length, bidirectional, max_distance), rtol=rtol,
                      id=case_id, domain=DOMAIN)


CASES = [
    case(f32(32, 4), 20, 0, 128, "t5_decoder"),
    case(f32(32, 4), 20, 1, 128, "t5_encoder"),
    case(f32(8, 2), 30, 1, 12, "past_max_distance"),
    case(f32(8, 3), 30, 0, 12, "unidirectional_past_max_distance"),
    case(f32(4, 1), 9, 1, 3, "two_buckets_a_side"),
    case(f32(6, 2), 1, 0, 5, "one_position"),
    case(f32(16, 2).astype(np.float16), 12, 1, 20, "fp16", rtol=0.0),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_buckets_worked_by_hand() -> None:
    """4 buckets, max_distance 8, unidirectional: exact buckets 0 and 1 for distances 0 and 1, then
    2 + trunc(log(n / 2) / log(4) * 2): 2 for n = 2, 3; 3 for n >= 4 (capped). Keys ahead of the query are at 0."""
    table = np.arange(8, dtype=np.float32).reshape(4, 2)  # column-major: head 0 reads 0..3, head 1 reads 4..7
    n = np.array(6, dtype=np.int64)
    (out,) = run(DOMAIN, OP, 1, [table, n, n], is_bidirectional=0, max_distance=8)
    distance = np.maximum(np.arange(6)[:, None] - np.arange(6)[None, :], 0)
    by_distance = np.array([0, 1, 2, 2, 3, 3])
    np.testing.assert_array_equal(out[0, 0], by_distance[distance])
    np.testing.assert_array_equal(out[0, 1], 4 + by_distance[distance])


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_shape_formula_matches_the_kernel(case: OracleCase, opset: int) -> None:
    v = version(DOMAIN, OP, opset)
    values = {"query_length": case.inputs[1].reshape(-1).tolist(), "key_length": case.inputs[2].reshape(-1).tolist()}
    (out,) = run(DOMAIN, OP, opset, case.inputs, **case.attrs)
    assert formula_shapes(v, case.inputs, case.attrs, values) == [list(out.shape)]


def _node(table: list[int], qlen: int, klen: int, **attrs: object) -> ShapeCase:
    return shape_case(OP, 1, [table, np.array(qlen, np.int64), np.array(klen, np.int64)],
                      {"max_distance": 8, **attrs}, 1, domain=DOMAIN)


REJECTED = [
    (_node([8, 2, 1], 4, 4), "relativepositionbias_c1"),
    (_node([8, 2], 4, 5), "relativepositionbias_c2"),
    (_node([8, 2], -1, -1), "relativepositionbias_c2"),
    (_node([1, 2], 4, 4), "relativepositionbias_c3"),
    (_node([8, 2], 4, 4, max_distance=2), "relativepositionbias_c3"),
    (_node([8, 2], 4, 4, is_bidirectional=1, max_distance=2), "relativepositionbias_c3"),
    (_node([8, 2], 4, 4, is_bidirectional=2), "attr_allowed"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
