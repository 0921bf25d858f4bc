"""`default_registry()`: the registry `check_model` validates against when given none, loaded once per process."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from opset.validate import check_model, default_registry
from opset.validate.api import _table


def test_it_is_the_registry_check_model_uses_and_is_loaded_once() -> None:
    registry = default_registry()
    assert default_registry() is registry and _table(None).registry is registry
    graph = helper.make_graph([helper.make_node("Relu", ["X"], ["Y"])], "g",
                              [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [3])])
    model: onnx.ModelProto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    given = [str(d) for d in check_model(model, registry=registry).diagnostics]
    assert given == [str(d) for d in check_model(model).diagnostics] and given  # Y declared [3], inferred [2]
