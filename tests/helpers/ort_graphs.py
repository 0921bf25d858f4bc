"""An oracle for com.microsoft ops onnxruntime runs on no CPU kernel (NhwcConv, BiasSoftmax, GemmFastGelu ...):
the equivalent subgraph of standard (or CPU-backed com.microsoft) nodes, run by onnxruntime's CPU provider."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper

from tests.helpers.oracles import run_onnxruntime


def node(op: str, inputs: Sequence[str], outputs: Sequence[str], *, domain: str = "", **attrs: Any) -> onnx.NodeProto:
    return helper.make_node(op, list(inputs), list(outputs), domain=domain, **attrs)


def run_ort_graph(nodes: Sequence[onnx.NodeProto], feeds: Mapping[str, np.ndarray], outputs: Sequence[str],
                  *, opset: int = 18) -> list[np.ndarray]:
    """Run `nodes` (inputs named by `feeds`, the given output names) with ai.onnx `opset` and com.microsoft 1."""
    graph_inputs = [helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)
                    for name, x in feeds.items()]
    graph = helper.make_graph(list(nodes), "subgraph", graph_inputs, [onnx.ValueInfoProto(name=o) for o in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    return [np.asarray(x) for x in run_onnxruntime(model, dict(feeds))]
