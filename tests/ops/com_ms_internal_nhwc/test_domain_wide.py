"""com.ms.internal.nhwc against its twins: each op and version is its onnx twin with input 0 and output 0 channels
last. onnxruntime runs the twin (NCHW) at the version's opset; the nhwc reference kernel on the transposed input must
give the transposed outputs, and `opset validate` the transposed shapes. One module for the domain: every op is the
same construction (conformance/kernels/com_ms_internal_nhwc/channels_last.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conformance.kernels import ops_without_kernel
from conformance.kernels.com_ms_internal_nhwc.channels_last import TWINS
from opset.validate import check_model
from tests.helpers import registry, run

DOMAIN = "com.ms.internal.nhwc"
RNG = np.random.default_rng(11)
X = RNG.standard_normal((2, 3, 6, 7)).astype(np.float32)  # NCHW
F = TensorProto.FLOAT


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


# (op, the twin's opset) -> (the twin's inputs after X, attributes, outputs compared)
CASES: dict[tuple[str, int], tuple[list[np.ndarray | None], dict[str, Any], int]] = {
    ("AveragePool", 11): ([], {"kernel_shape": [3, 2], "pads": [1, 0, 1, 1], "strides": [2, 1]}, 1),
    ("AveragePool", 19): ([], {"kernel_shape": [2, 2], "dilations": [2, 1], "ceil_mode": 1}, 1),
    ("BatchNormalization", 15): ([f32(3), f32(3), f32(3), np.abs(f32(3)) + 0.5], {"epsilon": 1e-3}, 1),
    ("Conv", 11): ([f32(4, 3, 3, 3), f32(4)], {"pads": [1, 1, 0, 0], "strides": [1, 2]}, 1),
    ("ConvTranspose", 11): ([f32(3, 2, 2, 2)], {"strides": [2, 2]}, 1),
    ("DepthToSpace", 13): ([], {"blocksize": 1}, 1),
    ("GlobalAveragePool", 1): ([], {}, 1),
    ("GlobalMaxPool", 1): ([], {}, 1),
    ("InstanceNormalization", 6): ([f32(3), f32(3)], {"epsilon": 1e-4}, 1),
    ("LRN", 13): ([], {"size": 3}, 1),
    ("LpPool", 18): ([], {"kernel_shape": [2, 3], "p": 2}, 1),
    ("MaxPool", 12): ([], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [0, 0, 0, 1]}, 1),
    ("Resize", 19): ([None, np.array([1, 1, 2, 1.5], np.float32)], {"mode": "nearest"}, 1),
    ("SpaceToDepth", 13): ([], {"blocksize": 1}, 1),
}


def _nchw_model(op: str, opset: int, extra: list[np.ndarray | None], attrs: dict[str, Any]) -> onnx.ModelProto:
    names = ["x"] + ["" if x is None else f"in{i}" for i, x in enumerate(extra)]
    inits = [numpy_helper.from_array(x, f"in{i}") for i, x in enumerate(extra) if x is not None]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", F, list(X.shape))],
                              [helper.make_tensor_value_info("y", F, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _nhwc_model(op: str, opset: int, extra: list[np.ndarray | None], attrs: dict[str, Any],
                y_rank: int) -> onnx.ModelProto:
    model = _nchw_model(op, opset, extra, attrs)
    model.graph.node[0].domain = DOMAIN
    model.graph.input[0].CopyFrom(helper.make_tensor_value_info("x", F, list(np.moveaxis(X, 1, -1).shape)))
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("y", F, [None] * y_rank))
    model.opset_import.append(helper.make_opsetid(DOMAIN, opset))
    return model


def _version(op: str, opset: int) -> int:
    return registry().resolve(DOMAIN, op, opset).since


@pytest.mark.parametrize(("op", "opset"), CASES)
def test_the_kernel_is_the_twin_between_transposes(op: str, opset: int) -> None:
    import onnxruntime as ort

    extra, attrs, _ = CASES[(op, opset)]
    session = ort.InferenceSession(_nchw_model(op, opset, extra, attrs).SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    (want,) = session.run(["y"], {"x": X})
    (got, *_) = run(DOMAIN, op, _version(op, opset), [np.moveaxis(X, 1, -1), *extra], **attrs)
    np.testing.assert_allclose(got, np.moveaxis(want, 1, -1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("op", "opset"), CASES)
def test_the_validator_gives_the_transposed_shape(op: str, opset: int) -> None:
    import onnxruntime as ort

    extra, attrs, _ = CASES[(op, opset)]
    (want,) = ort.InferenceSession(_nchw_model(op, opset, extra, attrs).SerializeToString(),
                                   providers=["CPUExecutionProvider"]).run(["y"], {"x": X})
    result = check_model(_nhwc_model(op, opset, extra, attrs, want.ndim))
    assert [str(d) for d in result.diagnostics if d.is_error] == []
    shape = result.facts["y"].shape
    if op == "Resize":  # float scales: the validator reads only integer values, so the dims stay unknown
        assert shape is not None and len(shape) == want.ndim
        return
    assert shape == np.moveaxis(want, 1, -1).shape


def test_every_op_has_a_twin_or_a_reason() -> None:
    ops = {name for (d, name) in registry().ops if d == DOMAIN}
    reasons = {name for (d, name) in ops_without_kernel() if d == DOMAIN}
    assert ops == set(TWINS) | reasons and not set(TWINS) & reasons
    for op, (versions, _) in TWINS.items():
        assert [v.since for v in registry().op(DOMAIN, op).versions] == list(versions)


def test_maxpool_applies_its_fused_activation() -> None:
    x = np.moveaxis(X, 1, -1)
    plain = run(DOMAIN, "MaxPool", 1, [x], kernel_shape=[2, 2])[0]
    relu = run(DOMAIN, "MaxPool", 1, [x], kernel_shape=[2, 2], activation="Relu")[0]
    clip = run(DOMAIN, "MaxPool", 1, [x], kernel_shape=[2, 2], activation="Clip", activation_params=[-0.5, 0.5])[0]
    assert np.array_equal(relu, np.maximum(plain, 0)) and np.array_equal(clip, np.clip(plain, -0.5, 0.5))
    with pytest.raises(ValueError, match="activation"):
        run(DOMAIN, "MaxPool", 1, [x], kernel_shape=[2, 2], activation="Swish")
