"""Oracles built from ai.onnx nodes: a small graph of standard ops, run by onnxruntime's CPU provider, that computes
what a contrib op means where onnxruntime has no CPU kernel for the op itself (Rfft through DFT, ComplexMul through
Mul, IsAllFinite through IsNaN and IsInf)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper

from tests.helpers.oracles import run_onnxruntime


def run_ai_onnx_graph(nodes: Sequence[onnx.NodeProto], feeds: Mapping[str, np.ndarray], outputs: Sequence[str],
                      *, opset: int = 20) -> list[Any]:
    """Run `nodes` (ai.onnx at `opset`) on `feeds` (graph inputs by name, typed by their arrays) and give the
    named outputs, as onnxruntime's CPU provider computes them."""
    inputs = [helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)
              for name, x in feeds.items()]
    graph = helper.make_graph(list(nodes), "oracle", inputs, [onnx.ValueInfoProto(name=o) for o in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    return run_onnxruntime(model, dict(feeds))


def scalar_int64(name: str, value: int) -> onnx.NodeProto:
    """A Constant node giving a 0-D int64 `value` as `name`."""
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(name, onnx.TensorProto.INT64, [], [value]))


def ints_int64(name: str, values: Sequence[int]) -> onnx.NodeProto:
    """A Constant node giving a 1-D int64 tensor of `values` as `name`."""
    return helper.make_node("Constant", [], [name],
                            value=helper.make_tensor(name, onnx.TensorProto.INT64, [len(values)], list(values)))
