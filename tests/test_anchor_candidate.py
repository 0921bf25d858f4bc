"""bench/anchor_candidate.py keeps the contracts of anchor-bench's candidate hooks: validate raises on a model with
errors, kernel and backend give onnxruntime's outputs, load_registry counts every op version."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from bench import anchor_candidate as candidate


def _model(nodes: list[onnx.NodeProto], out_shape: list[int]) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def test_validate_accepts_a_clean_model_and_rejects_one_with_errors() -> None:
    pool = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2])
    assert candidate.validate(_model([pool], [1, 2, 2, 2])) == "ok"
    with pytest.raises(candidate.Rejected, match="shape_mismatch"):
        candidate.validate(_model([pool], [1, 2, 3, 3]))


def test_validate_forgets_kept_outcomes_before_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # the anchor's contract: a hook keeping results across calls forgets them before each, so it times a first sight
    import opset.validate

    calls: list[int] = []
    real = opset.validate.forget_outcomes
    monkeypatch.setattr(opset.validate, "forget_outcomes", lambda: (calls.append(1), real())[-1])
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [1, 2, 6, 6])
    candidate.validate(model)
    candidate.validate(model)
    assert len(calls) == 2


def test_kernel_and_backend_give_onnxruntimes_outputs() -> None:
    x = np.random.default_rng(0).standard_normal((1, 2, 6, 6)).astype(np.float32)
    model = _model([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])],
                   [1, 2, 3, 3])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, {"x": x})
    # one output, as the node names: MaxPool's optional Indices are not computed
    (got,) = candidate.kernel("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, [x])
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(candidate.backend(model)({"x": x})[0], expected)
    # what the candidate cannot run is the contract's NotImplementedError, with the reason: an op without a
    # kernel, an op the registry lacks
    with pytest.raises(NotImplementedError, match="no reference kernel"):
        candidate.kernel("BeamSearch", {}, [x], domain="com.microsoft", opset=1)
    with pytest.raises(NotImplementedError, match="NotAnOp"):
        candidate.kernel("NotAnOp", {}, [x])


def test_load_registry_gives_every_version_of_every_domain() -> None:
    from opset.graph.check import registry

    versions = candidate.load_registry()
    assert {v.domain for v in versions} == set(registry().domains)
    assert len(versions) == len({(v.domain, v.name, v.since) for v in versions}) > 900
