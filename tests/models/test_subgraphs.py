"""Graph attributes in the model runner: bodies run with the enclosing values visible (at any depth), through the
executor that runs the model, with model-local functions; kernels get them as callables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from conformance.backends.protocol import Outer
from conformance.backends.reference import ReferenceBackend
from conformance.models import ModelRunError, run_model
from conformance.models.graphs import GraphFunction

F = TensorProto.FLOAT


def _vi(name: str, shape: list[int] | None = None, elem: int = F) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def _nested_model() -> onnx.ModelProto:
    """A Loop whose body holds an If whose branches read `bias` (a graph input two levels out) and the body's own
    carried value: y <- y + bias when the iteration number is even, y - bias otherwise; scan outputs y."""
    then = helper.make_graph([helper.make_node("Add", ["y_in", "bias"], ["t"])], "then", [], [_vi("t", [2])])
    other = helper.make_graph([helper.make_node("Sub", ["y_in", "bias"], ["e"])], "else", [], [_vi("e", [2])])
    body_nodes = [
        helper.make_node("Constant", [], ["two"], value=helper.make_tensor("two_v", TensorProto.INT64, [], [2])),
        helper.make_node("Mod", ["i", "two"], ["parity"]),
        helper.make_node("Constant", [], ["zero"], value=helper.make_tensor("zero_v", TensorProto.INT64, [], [0])),
        helper.make_node("Equal", ["parity", "zero"], ["even"]),
        helper.make_node("If", ["even"], ["y_out"], name="step", then_branch=then, else_branch=other),
        helper.make_node("Identity", ["c_in"], ["c_out"]),
        helper.make_node("Identity", ["y_out"], ["s"]),
    ]
    body = helper.make_graph(body_nodes, "body", [_vi("i", [], TensorProto.INT64), _vi("c_in", [], TensorProto.BOOL),
                                                  _vi("y_in", [2])],
                             [_vi("c_out", [], TensorProto.BOOL), _vi("y_out", [2]), _vi("s", [2])])
    loop = helper.make_node("Loop", ["M", "go", "y0"], ["y", "ys"], name="loop", body=body)
    graph = helper.make_graph([loop], "g", [_vi("M", [], TensorProto.INT64), _vi("go", [], TensorProto.BOOL),
                                            _vi("y0", [2]), _vi("bias", [2])],
                              [_vi("y", [2]), _vi("ys", [None, 2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    model.ir_version = 8
    return model


FEEDS = {"M": np.array(3, np.int64), "go": np.array(True), "y0": np.array([1.0, 2.0], np.float32),
         "bias": np.array([0.5, -0.25], np.float32)}


def test_nested_graphs_read_values_of_every_enclosing_graph() -> None:
    ours = run_model(_nested_model(), FEEDS)
    bias, y = FEEDS["bias"], FEEDS["y0"]
    steps = [y + bias, y, y + bias]  # iterations 0, 1, 2: + bias, - bias, + bias
    np.testing.assert_allclose(ours["ys"], np.stack(steps))
    np.testing.assert_allclose(ours["y"], steps[-1])
    theirs = ReferenceEvaluator(_nested_model()).run(None, FEEDS)
    np.testing.assert_allclose(ours["ys"], theirs[1])


class Recording:
    """The reference, recording each node it runs: the model runner must hand the bodies' nodes to it too."""

    def __init__(self) -> None:
        self.reference = ReferenceBackend()
        self.ops: list[str] = []

    def run(self, node: onnx.NodeProto, inputs: list[Any], opset_imports: Mapping[str, int] | None = None,
            outer: Outer | None = None) -> list[Any]:
        self.ops.append(node.op_type)
        return self.reference.run(node, inputs, opset_imports, outer)


def test_bodies_run_through_the_models_executor() -> None:
    executor = Recording()
    run_model(_nested_model(), FEEDS, executor)
    assert executor.ops.count("Loop") == 1
    assert executor.ops.count("If") == 3  # once per iteration, each running one branch's node
    assert executor.ops.count("Add") == 2 and executor.ops.count("Sub") == 1


def test_a_body_calls_a_model_local_function() -> None:
    twice = helper.make_function("local", "Twice", ["a"], ["b"], [helper.make_node("Add", ["a", "a"], ["b"])],
                                 [helper.make_opsetid("", 16)])
    then = helper.make_graph([helper.make_node("Twice", ["x"], ["t"], domain="local")], "then", [], [_vi("t", [2])])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [], [_vi("e", [2])])
    node = helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)
    graph = helper.make_graph([node], "g", [_vi("c", [], TensorProto.BOOL), _vi("x", [2])], [_vi("y", [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16), helper.make_opsetid("local", 1)],
                              functions=[twice])
    model.ir_version = 8
    x = np.array([1.5, -2.0], np.float32)
    np.testing.assert_allclose(run_model(model, {"c": np.array(True), "x": x})["y"], 2 * x)


def test_a_graph_function_is_a_plain_callable() -> None:
    body = helper.make_graph([helper.make_node("Mul", ["a", "k"], ["b"])], "scale", [_vi("a", [2])], [_vi("b", [2])])
    scale = GraphFunction(body, Outer({"k": np.array([2.0, 3.0], np.float32)}, ReferenceBackend()), {"": 16})
    (out,) = scale(np.array([1.0, 1.0], np.float32))
    np.testing.assert_allclose(out, [2.0, 3.0])
    assert scale.declared_outputs() == [(np.dtype(np.float32), (2,))]
    with pytest.raises(ModelRunError, match="called with 2 value"):
        scale(np.zeros(2, np.float32), np.zeros(2, np.float32))


def test_a_body_reading_a_value_nobody_defines_is_a_located_error() -> None:
    model = _nested_model()
    del model.graph.input[3]  # bias
    with pytest.raises(ModelRunError, match="bias"):
        run_model(model, {k: v for k, v in FEEDS.items() if k != "bias"})
