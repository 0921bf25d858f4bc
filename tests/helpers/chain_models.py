"""A model that takes as long as asked: `layers` blocks of MatMul, Add and Relu (runs that are stopped midway)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def chain_model(layers: int = 3, width: int = 4) -> onnx.ModelProto:
    """x [N, width], m [N, width] -> `layers` of (MatMul w, Add m, Relu) -> y, and z = softmax of the last layer."""
    w = numpy_helper.from_array(np.full((width, width), 1.0 / width, np.float32), "w")
    nodes, last = [], "x"
    for i in range(layers):
        nodes += [helper.make_node("MatMul", [last, "w"], [f"p{i}"]),
                  helper.make_node("Add", [f"p{i}", "m"], [f"a{i}"]),
                  helper.make_node("Relu", [f"a{i}"], [f"r{i}"])]
        last = f"r{i}"
    nodes.append(helper.make_node("Identity", [last], ["y"]))
    nodes.append(helper.make_node("Softmax", [last], ["z"]))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, ["N", width]),
                                           helper.make_tensor_value_info("m", F, ["N", width])],
                              [helper.make_tensor_value_info("y", F, ["N", width]),
                               helper.make_tensor_value_info("z", F, ["N", width])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model
