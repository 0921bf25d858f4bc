"""Equivalent ai.onnx subgraphs of com.microsoft ops onnxruntime runs only on CUDA, run by its CPU provider."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tests.helpers.oracles import run_onnxruntime


def group_norm_subgraph(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, *, groups: int, activation: int,
                        channels_last: int, epsilon: float, skip: np.ndarray | None = None,
                        bias: np.ndarray | None = None) -> Callable[[], list[Any]]:
    """What com.microsoft GroupNorm's text says (SkipGroupNorm's with `skip`, already broadcastable to x, and `bias`
    (C,)), as an ai.onnx (opset 18) model run by onnxruntime's CPU provider, in float32; outputs y (and s)."""
    nchw = np.moveaxis(x, 3, 1) if channels_last else x
    c = nchw.shape[1]
    inits = [numpy_helper.from_array(np.array(a), n) for n, a in (
        ("grouped", np.array([nchw.shape[0], groups, -1], np.int64)), ("back", np.array(nchw.shape, np.int64)),
        ("axes", np.array([2], np.int64)), ("eps", np.array(epsilon, np.float32)),
        ("gamma", gamma.astype(np.float32).reshape(c, 1, 1)), ("beta", beta.astype(np.float32).reshape(c, 1, 1)))]
    nodes = [helper.make_node("Cast", ["x"], ["x0"], to=TensorProto.FLOAT)]
    outs = ["y"]
    if skip is None:
        nodes.append(helper.make_node("Identity", ["x0"], ["xf"]))
    else:
        c_axis = 3 if channels_last else 1
        b = np.zeros(c, np.float32) if bias is None else bias.astype(np.float32)
        inits += [numpy_helper.from_array(skip.astype(np.float32), "skip"),
                  numpy_helper.from_array(b.reshape([c if i == c_axis else 1 for i in range(4)]), "bias")]
        nodes += [helper.make_node("Add", ["x0", "skip"], ["x1"]), helper.make_node("Add", ["x1", "bias"], ["xf"]),
                  helper.make_node("Cast", ["xf"], ["s"], to=helper.np_dtype_to_tensor_dtype(x.dtype))]
        outs.append("s")
    nodes.append(helper.make_node("Transpose", ["xf"], ["t"], perm=[0, 3, 1, 2]) if channels_last else
                 helper.make_node("Identity", ["xf"], ["t"]))
    nodes += [helper.make_node("Reshape", ["t", "grouped"], ["g"]),
              helper.make_node("ReduceMean", ["g", "axes"], ["mean"]),
              helper.make_node("Sub", ["g", "mean"], ["d"]), helper.make_node("Mul", ["d", "d"], ["dd"]),
              helper.make_node("ReduceMean", ["dd", "axes"], ["var"]), helper.make_node("Add", ["var", "eps"], ["ve"]),
              helper.make_node("Sqrt", ["ve"], ["std"]), helper.make_node("Div", ["d", "std"], ["n"]),
              helper.make_node("Reshape", ["n", "back"], ["nb"]), helper.make_node("Mul", ["nb", "gamma"], ["sc"]),
              helper.make_node("Add", ["sc", "beta"], ["y0"])]
    if activation:
        nodes += [helper.make_node("Sigmoid", ["y0"], ["sg"]), helper.make_node("Mul", ["y0", "sg"], ["y1"])]
    last = "y1" if activation else "y0"
    nodes.append(helper.make_node("Transpose", [last], ["yt"], perm=[0, 2, 3, 1]) if channels_last else
                 helper.make_node("Identity", [last], ["yt"]))
    nodes.append(helper.make_node("Cast", ["yt"], ["y"], to=helper.np_dtype_to_tensor_dtype(x.dtype)))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", helper.np_dtype_to_tensor_dtype(x.dtype),
                                                                         x.shape)],
                              [onnx.ValueInfoProto(name=o) for o in outs], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return lambda: run_onnxruntime(model, {"x": x})
