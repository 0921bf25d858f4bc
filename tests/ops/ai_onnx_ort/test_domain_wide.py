"""ai.onnx.ort, onnxruntime's default-domain ops beyond onnx's opsets, against onnxruntime itself (which runs them in
the default domain up to opset 9): each reference kernel gives onnxruntime's values, and `opset validate --profile
onnxruntime` gives each output onnxruntime's shape with no error. One module for the domain (its ops are small and
share one oracle); GRUUnit and the TensorRT plugins have no kernel (`no_reference_kernel` in their op files)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conformance.kernels import ops_without_kernel
from opset.validate import check_model
from tests.helpers import registry, run

DOMAIN = "ai.onnx.ort"
RNG = np.random.default_rng(7)
X4 = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
ONES6 = np.linspace(0.5, 1.5, 6).astype(np.float32)

# op -> (inputs (None: absent), attributes, how many outputs)
CASES: dict[str, tuple[list[np.ndarray | None], dict[str, Any], int]] = {
    "Affine": ([X4], {"alpha": 2.5, "beta": -1.0}, 1),
    "Crop": ([X4], {"border": [1, 2, 0, 1]}, 1),
    "Crop_scale": ([X4], {"border": [1, 1, 0, 0], "scale": [3, 4]}, 1),
    "ImageScaler": ([X4], {"scale": 0.5, "bias": [1.0, -2.0, 3.0]}, 1),
    "ParametricSoftplus": ([X4], {"alpha": 1.5, "beta": 0.75}, 1),
    "ScaledTanh": ([X4], {"alpha": 2.0, "beta": 0.5}, 1),
    "Scale": ([X4], {"scale": -3.0}, 1),
    "ThresholdedRelu": ([X4], {"alpha": 0.25}, 1),
    "MeanVarianceNormalization": ([X4], {}, 1),
    "MeanVarianceNormalization_across": ([X4], {"across_channels": 1, "normalize_variance": 0}, 1),
    "LayerNormalization": ([X4, ONES6, ONES6 - 1], {"axis": -1, "epsilon": 1e-5}, 3),
    "SimplifiedLayerNormalization": ([X4, ONES6], {"axis": -1}, 2),
    "DynamicSlice": ([X4, np.array([1, 0], np.int64), np.array([3, -1], np.int64), np.array([2, 3], np.int64)],
                     {}, 1),
}
# onnx's MeanVarianceNormalization-9 takes the default domain from opset 9 (the profile's newer version, as
# onnxruntime's): version 1 is onnxruntime's below it
OPSET = {"MeanVarianceNormalization": 8}


def _op(case: str) -> str:
    return case.split("_")[0] if case.split("_")[0] in {k.split("_")[0] for k in CASES} else case


def _model(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any], n_out: int,
           opset: int = 9) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """A one-node model in the default domain: the first input fed, the others initializers."""
    names, graph_inputs, inits, feeds = [], [], [], {}
    for i, x in enumerate(inputs):
        if x is None:
            names.append("")
            continue
        names.append(f"in{i}")
        if i == 0:
            graph_inputs.append(helper.make_tensor_value_info("in0", TensorProto.FLOAT, list(x.shape)))
            feeds["in0"] = x
        else:
            inits.append(numpy_helper.from_array(x, f"in{i}"))
    while names and names[-1] == "":
        names.pop()
    outputs = [f"out{k}" for k in range(n_out)]
    node = helper.make_node(op, names, outputs, **attrs)
    graph = helper.make_graph([node], "g", graph_inputs,
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7
    return model, feeds


def _onnxruntime(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, feeds))


@pytest.mark.parametrize("case", CASES)
def test_the_kernel_gives_onnxruntimes_values(case: str) -> None:
    op = _op(case)
    inputs, attrs, n_out = CASES[case]
    theirs = _onnxruntime(*_model(op, inputs, attrs, n_out, OPSET.get(op, 9)))
    ours = run(DOMAIN, op, 1, inputs, **attrs)
    for mine, want in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(mine, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", CASES)
def test_the_profile_validates_with_onnxruntimes_shapes(case: str) -> None:
    op = _op(case)
    inputs, attrs, n_out = CASES[case]
    model, feeds = _model(op, inputs, attrs, n_out, OPSET.get(op, 9))
    theirs = _onnxruntime(model, feeds)
    result = check_model(model, "onnxruntime")
    assert [d.check for d in result.diagnostics if d.is_error] == ["incomplete_type"] * n_out  # (outputs undeclared)
    assert [result.facts[f"out{k}"].shape for k in range(n_out)] == [y.shape for y in theirs]
    # the default profile keeps onnx's verdict: an op of no opset (or one onnx removed: Scale)
    assert {"unknown_op", "removed_op"} & {d.check for d in check_model(model).diagnostics}


def test_every_op_with_a_kernel_is_tested_and_the_others_have_a_reason() -> None:
    ops = {name for (d, name) in registry().ops if d == DOMAIN}
    tested = {_op(c) for c in CASES} | {"MemcpyFromHost", "MemcpyToHost", "GivenTensorFill"}
    reasons = {name for (d, name) in ops_without_kernel() if d == DOMAIN}
    assert ops == tested | reasons and not tested & reasons


def test_the_memcpy_nodes_pass_values_on() -> None:
    for op in ("MemcpyFromHost", "MemcpyToHost"):
        assert np.array_equal(run(DOMAIN, op, 1, [X4])[0], X4)


def test_given_tensor_fill_lays_its_values_out_in_the_shape() -> None:
    """onnxruntime's kernel reads an input it does not require (it fails on a node without one), so the values are
    checked against the op's own definition, Caffe2's: the values in C order."""
    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert run(DOMAIN, "GivenTensorFill", 1, [None], shape=[2, 3], values=values)[0].tolist() == [[1, 2, 3], [4, 5, 6]]
    assert run(DOMAIN, "GivenTensorFill", 1, [np.array([3, 2], np.int64)], values=values, input_as_shape=1)[0].shape \
        == (3, 2)


def test_onnxruntime_has_no_kernel_for_gru_unit_as_its_reason_says() -> None:
    f = np.float32
    model, feeds = _model("GRUUnit", [np.zeros((2, 4), f), np.zeros((2, 12), f), np.ones(2, f), np.zeros(1, f)],
                          {"drop_states": 0}, 1)
    with pytest.raises(Exception, match=r"(?i)implementation|kernel|not.*registered"):
        _onnxruntime(model, feeds)


@pytest.mark.parametrize("opset", [10, 13])
def test_the_version_10_registrations_refuse_the_node_as_onnxruntime_does(opset: int) -> None:
    model, feeds = _model("Affine", [X4], {"alpha": 1.0, "beta": 0.0}, 1, opset)
    with pytest.raises(Exception, match="not a registered"):
        _onnxruntime(model, feeds)
    assert "deprecated_op" in [d.check for d in check_model(model, "onnxruntime").diagnostics]


@pytest.mark.parametrize(("opset", "since", "domain"), [(12, 1, DOMAIN), (17, 17, "ai.onnx"), (18, 17, "ai.onnx")])
def test_the_profile_takes_the_newer_of_the_two_versions(opset: int, since: int, domain: str) -> None:
    model, _ = _model("LayerNormalization", [X4, ONES6], {}, 1, opset)
    errors = [d for d in check_model(model, "onnxruntime").diagnostics if d.is_error and d.check != "incomplete_type"]
    assert errors == []
    op = check_model(model, "onnxruntime")
    assert op.facts["out0"].shape == X4.shape
    assert registry().resolve(domain, "LayerNormalization", since).since == since


def test_opset_validate_takes_the_profile_on_its_command_line(tmp_path: Any) -> None:
    from opset.validate.cli import main_validate

    model, _ = _model("Affine", [X4], {"alpha": 2.0, "beta": 1.0}, 1)
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("out0", TensorProto.FLOAT, list(X4.shape)))
    path = tmp_path / "affine.onnx"
    onnx.save(model, path)
    assert main_validate([str(path), "--profile", "onnxruntime"]) == 0
    assert main_validate([str(path)]) == 1  # an op of no onnx opset


def test_the_default_profile_points_at_the_onnxruntime_profile_for_its_ops() -> None:
    """onnxruntime's optimizer writes its LayerNormalization-1 into opset-14 models (BERT's LayerNorm fusion)."""
    model, _ = _model("LayerNormalization", [X4, ONES6], {}, 1, 14)
    (unknown,) = [d for d in check_model(model).diagnostics if d.check == "unknown_op"]
    assert unknown.message.endswith("validate with --profile onnxruntime)")
