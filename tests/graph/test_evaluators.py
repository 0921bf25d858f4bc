"""Eager mode on every kind of backend `conform --backend` takes, through conform's own adapter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import onnx
import pytest

from conformance.backends import resolve_backend
from conformance.backends.ort import OnnxRuntimeBackend
from opset.graph import set_evaluator
from opset.ops.ai_onnx import v22 as op
from opset.ops.com_microsoft import v1 as ms


@pytest.fixture(autouse=True)
def _reference_again() -> Iterator[None]:
    yield
    set_evaluator(None)


class NodeOnly:
    """run(node, inputs): the plainest backend the protocol takes."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def run(self, node: onnx.NodeProto, inputs: list[Any]) -> list[Any]:
        self.seen.append(node.op_type)
        return [np.maximum(inputs[0], 0) + 100]


class ModelLevel:
    """run(model, feeds): a one-node model, as onnxruntime's adapter is."""

    def __init__(self) -> None:
        self.models: list[onnx.ModelProto] = []

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
        self.models.append(model)
        return [np.full(tuple(d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim), 7, np.float32)]


X = np.array([[-1.0, 2.0, -3.0]], np.float32)


def test_the_documented_onnxruntime_comparison_runs() -> None:
    set_evaluator(OnnxRuntimeBackend())  # docs/building-models.md, word for word
    np.testing.assert_array_equal(op.Relu(X), np.maximum(X, 0))
    np.testing.assert_allclose(op.Softmax(X, axis=-1), np.exp(X) / np.exp(X).sum(-1, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize("spec", ["onnxruntime", "onnx-reference", "reference"])
def test_a_resolved_backend_is_an_evaluator(spec: str) -> None:
    set_evaluator(resolve_backend(spec))
    np.testing.assert_array_equal(op.Relu(X), np.maximum(X, 0))


def test_a_com_microsoft_node_reaches_onnxruntime_with_an_ai_onnx_import() -> None:
    set_evaluator(OnnxRuntimeBackend())
    got = ms.FastGelu(X)
    set_evaluator(None)
    np.testing.assert_allclose(got, ms.FastGelu(X), rtol=1e-5, atol=1e-6)


def test_an_onnx_backend_module_is_an_evaluator() -> None:
    import onnxruntime.backend

    set_evaluator(onnxruntime.backend)
    np.testing.assert_array_equal(op.Relu(X), np.maximum(X, 0))


def test_node_level_and_model_level_backends_are_called_and_their_answer_returned() -> None:
    node_only = NodeOnly()
    set_evaluator(node_only)
    np.testing.assert_array_equal(op.Relu(X), np.maximum(X, 0) + 100)
    assert node_only.seen == ["Relu"]
    model_level = ModelLevel()
    set_evaluator(model_level)
    np.testing.assert_array_equal(op.Relu(X), np.full((1, 3), 7, np.float32))
    declared = model_level.models[0].graph.output[0].type.tensor_type
    assert declared.elem_type == onnx.TensorProto.FLOAT  # the inferred output type reaches the model


def test_something_that_is_no_backend_is_refused_when_set() -> None:
    with pytest.raises(ValueError, match="no run"):
        set_evaluator(object())


def test_eager_mode_finds_its_evaluator_through_the_declared_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """opset names no kernel module: the provider comes from the `opset.evaluators` group, and without one the
    error says which group and how to install it."""
    from opset.graph import eager, evaluator

    assert type(evaluator.provider()).__module__ == "conformance.backends.eager"
    monkeypatch.setattr(evaluator, "entry_points", lambda group: [])
    set_evaluator(None)
    with pytest.raises(evaluator.NoEvaluator, match=r"'opset\.evaluators'.*pip install -e \."):
        eager.evaluator()
