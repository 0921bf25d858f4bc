"""`first_non_utf8` names the first string field whose bytes are not UTF-8, wherever it is: in a node, a graph
attribute's nested graph, a tensor (read field by field, never its raw_data), a value's type."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import ModelProto, TensorProto, helper, numpy_helper

from opset.validate.reading import first_non_utf8

MARK = "Q7Q7"  # replaced by bytes that are not UTF-8 after serialising


def _model(place: str) -> ModelProto:
    def name(default: str, here: str) -> str:
        return MARK if place == here else default

    weight = numpy_helper.from_array(np.arange(4, dtype=np.float32), name("w", "initializer"))
    body = helper.make_graph([helper.make_node("Identity", ["x"], ["y"], name=name("inner", "subgraph node"))],
                             "body", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
                             [numpy_helper.from_array(np.zeros(4, np.float32), "x")])
    nodes = [helper.make_node("Add", ["X", weight.name], ["A"], name=name("add", "node name")),
             helper.make_node("If", ["C"], ["Y"], then_branch=body, else_branch=body, name="if")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [name("n", "dim")]),
                                           helper.make_tensor_value_info("C", TensorProto.BOOL, [])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [4])], [weight])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


@pytest.mark.parametrize(("place", "path"), [
    ("node name", "model.graph.node[0].name"),
    ("initializer", "model.graph.node[0].input[1]"),  # the node names the tensor first
    ("subgraph node", "model.graph.node[1].attribute[0].g.node[0].name"),
    ("dim", "model.graph.input[0].type.tensor_type.shape.dim[0].dim_param"),
])
def test_the_first_bad_string_is_named(place: str, path: str) -> None:
    data = _model(place).SerializeToString()
    assert data.count(MARK.encode()) >= 1
    broken = ModelProto.FromString(data.replace(MARK.encode(), b"\xffQ7Q"))
    assert first_non_utf8(broken) == path
    assert first_non_utf8(_model("nowhere")) is None


def test_a_tensor_s_raw_bytes_are_not_strings() -> None:
    model = _model("nowhere")
    model.graph.initializer[0].raw_data = b"\xff\xfe\x00\x01" * 4
    assert first_non_utf8(model) is None
    model.graph.initializer[0].name = "w"
    model.graph.initializer[0].doc_string = MARK
    broken = ModelProto.FromString(model.SerializeToString().replace(MARK.encode(), b"\xffQ7Q"))
    assert first_non_utf8(broken) == "model.graph.initializer[0].doc_string"
