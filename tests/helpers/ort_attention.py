"""Checks the com.microsoft attention tests share: every output shape of a one-node model by the registry's
formulas against what onnxruntime's CPU kernel actually produces, and integer-valued inputs known to both sides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from onnx import TensorProto, helper

from tests.helpers.basics import formula_shapes, version
from tests.helpers.oracles import OracleCase, one_node_model, run_onnxruntime

DOMAIN = "com.microsoft"


def assert_every_output_shape_matches_onnxruntime(case: OracleCase, opset: int = 1) -> None:
    """Each of the case's n_out outputs: the formula's shape (integer inputs' values known, as initializers or
    feeds that a data-dependent formula reads) equals the shape onnxruntime gives it."""
    v = version(case.domain, case.op, opset)
    values = {v.inputs[i].name: np.asarray(x).reshape(-1).tolist() for i, x in enumerate(case.inputs)
              if isinstance(x, np.ndarray) and x.dtype.kind in "iu" and i < len(v.inputs)}
    mine = formula_shapes(v, list(case.inputs), case.attrs, values)
    model, feeds = one_node_model(case.op, opset, case.inputs, case.attrs, case.n_out, domain=case.domain)
    theirs = [list(o.shape) for o in run_onnxruntime(model, feeds)]
    assert mine[:case.n_out] == theirs, f"{case.label(opset)}: formulas give {mine[:case.n_out]}, onnxruntime {theirs}"


def i32(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int32)


def scalar_i32(value: int) -> np.ndarray:
    return np.array(value, dtype=np.int32)


def shapes(*items: Sequence[int] | None) -> list[Any]:
    return [None if s is None else list(s) for s in items]


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


def gather_scatter_outputs(x: np.ndarray, offsets: np.ndarray, count: int) -> list[np.ndarray]:
    """onnxruntime on ai.onnx ops: the packed rows (GatherND at the first count offsets) and the restored tensor
    (ScatterND of them onto zeros)."""
    batch, seq, hidden = x.shape
    idx = offsets.reshape(-1)[:count].astype(np.int64).reshape(count, 1)
    nodes = [helper.make_node("Reshape", ["x", "rows_shape"], ["rows"]),
             helper.make_node("GatherND", ["rows", "idx"], ["packed"]),
             helper.make_node("Mul", ["rows", "zero"], ["zeros"]),
             helper.make_node("ScatterND", ["zeros", "idx", "packed"], ["restored_rows"]),
             helper.make_node("Reshape", ["restored_rows", "x_shape"], ["restored"])]
    inits = [helper.make_tensor("rows_shape", TensorProto.INT64, [2], [batch * seq, hidden]),
             helper.make_tensor("x_shape", TensorProto.INT64, [3], [batch, seq, hidden]),
             helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])]
    graph = helper.make_graph(nodes, "padding", [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape)),
        helper.make_tensor_value_info("idx", TensorProto.INT64, [count, 1])],
        [helper.make_tensor_value_info("packed", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("restored", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return run_onnxruntime(model, {"x": x, "idx": idx})
