"""Small ONNX nets of the ops vision converters write, with seeded random weights (tests of ONNX -> .tmfile)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def small_net(seed: int = 11) -> onnx.ModelProto:
    """A vision net of the ops converters write: Conv + Relu, depthwise Conv + Clip(0, 6), BatchNormalization, a
    residual Add, MaxPool, a branch Concat, GlobalAveragePool, Flatten, Gemm and Softmax."""
    rng = np.random.default_rng(seed)

    def _w(*shape: int, scale: float = 0.3) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    inits = {"w1": _w(8, 3, 3, 3), "b1": _w(8), "w2": _w(8, 1, 3, 3), "b2": _w(8), "lo": np.float32(0),
             "hi": np.float32(6), "scale": np.abs(_w(8)) + 0.5, "bias": _w(8), "mean": _w(8),
             "var": np.abs(_w(8)) + 0.5, "w3": _w(4, 8, 1, 1), "b3": _w(4), "fc_w": _w(5, 12), "fc_b": _w(5)}
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], "conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], "relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], "dw", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=8),
        helper.make_node("Clip", ["c2", "lo", "hi"], ["r2"], "relu6"),
        helper.make_node("BatchNormalization", ["r2", "scale", "bias", "mean", "var"], ["bn"], "bn", epsilon=1e-3),
        helper.make_node("Add", ["bn", "r1"], ["res"], "residual"),
        helper.make_node("MaxPool", ["res"], ["p"], "pool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p", "w3", "b3"], ["c3"], "branch", kernel_shape=[1, 1]),
        helper.make_node("Concat", ["p", "c3"], ["cat"], "cat", axis=1),
        helper.make_node("GlobalAveragePool", ["cat"], ["g"], "gap"),
        helper.make_node("Flatten", ["g"], ["f"], "flatten", axis=1),
        helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["logits"], "fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["y"], "softmax", axis=1),
    ]
    graph = helper.make_graph(nodes, "small", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])],
                              [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
