"""A corpus of broken models, built with onnx.helper at test time: each case names the diagnostic it
must produce (check id, severity and words of the message)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def tensor(name: str, elem: int, shape: Sequence[int | str] | None) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
          *, inits: Sequence[onnx.TensorProto] = (), opsets: dict[str, int] | None = None,
          value_info: Sequence[onnx.ValueInfoProto] = ()) -> onnx.ModelProto:
    imports = [helper.make_opsetid(d, v) for d, v in (opsets or {"": 18}).items()]
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits), value_info=list(value_info))
    m = helper.make_model(graph, opset_imports=imports)
    m.ir_version = 8
    return m


def node(op: str, ins: list[str], outs: list[str], domain: str = "", name: str = "", **attrs: Any) -> onnx.NodeProto:
    return helper.make_node(op, ins, outs, domain=domain, name=name or f"{op.lower()}0", **attrs)


X = tensor("X", F, [2, 3])
Y = tensor("Y", F, [2, 3])
MS = {"": 18, "com.microsoft": 1}
NHWC = tensor("X", F, [1, 8, 8, 4])
W33 = numpy_helper.from_array(np.ones((3, 3, 4, 1), np.float32), "W")


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], onnx.ModelProto]
    check: str
    words: tuple[str, ...]
    profile: str | None = None
    severity: str = "error"


def _float_attr() -> onnx.NodeProto:
    n = node("Softmax", ["X"], ["Y"])
    n.attribute.append(helper.make_attribute("axis", 1.5))
    return n


def _if_model(inner_op: str, reads: str) -> onnx.ModelProto:
    then = helper.make_graph([node(inner_op, [reads], ["t"], name="inner")], "then", [], [tensor("t", F, [2, 3])])
    other = helper.make_graph([node("Relu", ["X"], ["e"], name="inner_else")], "else", [], [tensor("e", F, [2, 3])])
    cond = tensor("cond", TensorProto.BOOL, [])
    n = helper.make_node("If", ["cond"], ["Y"], name="if0", then_branch=then, else_branch=other)
    return model([n], [cond, X], [Y])


CASES: list[Case] = [
    Case("unknown_op_default_domain", lambda: model([node("FooBar", ["X"], ["Y"])], [X], [Y]),
         "unknown_op", ("FooBar", "18")),
    Case("unknown_op_com_microsoft", lambda: model([node("NotAnOp", ["X"], ["Y"], "com.microsoft")], [X], [Y],
                                                   opsets=MS), "unknown_op", ("NotAnOp",)),
    Case("unknown_domain", lambda: model([node("Swish", ["X"], ["Y"], "org.tengine")], [X], [Y],
                                         opsets={"": 18, "org.tengine": 1}), "unknown_op", ("org.tengine",)),
    Case("op_before_its_opset", lambda: model([node("Resize", ["X", "", "sc"], ["Y"])], [X], [Y],
                                              opsets={"": 9}), "unknown_op", ("Resize", "opset 10")),
    Case("opset_beyond_registry", lambda: model([node("Relu", ["X"], ["Y"])], [X], [Y], opsets={"": 99}),
         "unknown_opset", ("99",)),
    Case("fastgelu_three_inputs", lambda: model([node("FastGelu", ["X", "X", "X"], ["Y"], "com.microsoft")],
                                                [X], [Y], opsets=MS), "arity", ("inputs", "got 3")),
    Case("quantizelinear_one_input", lambda: model(
        [node("QuantizeLinear", ["X"], ["Q"], "com.microsoft")], [X], [tensor("Q", TensorProto.INT8, [2, 3])],
        opsets=MS), "arity", ("inputs", "got 1")),
    Case("required_input_empty", lambda: model([node("Add", ["X", ""], ["Y"])], [X], [Y]),
         "arity", ("required input 1",)),
    Case("unknown_attribute", lambda: model([node("Relu", ["X"], ["Y"], foo=1)], [X], [Y]),
         "attr_unknown", ("foo",)),
    Case("mistyped_attribute", lambda: model([_float_attr()], [X], [Y]), "attr_type", ("axis", "int", "float")),
    Case("kernel_shape_wrong_rank", lambda: model(
        [node("DepthwiseConv2d", ["X", "W"], ["Y"], kernel_shape=[3])], [NHWC], [tensor("Y", F, None)],
        inits=[W33], opsets={"": 7}), "attr_length", ("kernel_shape",), profile="seed000"),
    Case("allowed_value", lambda: model(
        [node("DepthwiseConv2d", ["X", "W"], ["Y"], pads="FULL")], [NHWC], [tensor("Y", F, None)],
        inits=[W33], opsets={"": 7}), "attr_allowed", ("pads", "FULL"), profile="seed000"),
    Case("required_attribute_missing", lambda: model([node("Constant", [], ["Y"])], [], [Y], opsets={"": 9}),
         "attr_required", ("value",)),
    Case("add_float_int64", lambda: model([node("Add", ["X", "K"], ["Y"])], [X, tensor("K", I64, [2, 3])], [Y]),
         "type_mismatch", ("T", "tensor(float)", "tensor(int64)")),
    Case("type_not_allowed", lambda: model([node("Sigmoid", ["K"], ["Y"])], [tensor("K", I64, [2, 3])],
                                           [tensor("Y", I64, [2, 3])]), "type_not_allowed", ("tensor(int64)",)),
    Case("declared_output_type", lambda: model([node("Relu", ["X"], ["Y"])], [X], [tensor("Y", I64, [2, 3])]),
         "type_mismatch", ("declared", "tensor(int64)")),
    Case("cycle", lambda: model([node("Relu", ["b"], ["a"], name="r1"), node("Relu", ["a"], ["b"], name="r2"),
                                 node("Relu", ["X"], ["Y"], name="r3")], [X], [Y]), "cycle", ("r1", "r2")),
    Case("undefined_input", lambda: model([node("Relu", ["nope"], ["Y"])], [X], [Y]), "undefined_input", ("nope",)),
    Case("undefined_graph_output", lambda: model([node("Relu", ["X"], ["Z"])], [X], [Y]),
         "undefined_output", ("Y",)),
    Case("duplicate_output", lambda: model([node("Relu", ["X"], ["Y"], name="a"), node("Relu", ["X"], ["Y"], name="b")],
                                           [X], [Y]), "duplicate_name", ("Y", "node 0")),
    Case("output_shadows_input", lambda: model([node("Relu", ["X"], ["X"])], [X], [X]), "duplicate_name", ("X",)),
    Case("tengine_op_in_default_domain", lambda: model([node("Convolution", ["X", "X"], ["Y"])], [X], [Y]),
         "unknown_op", ("Convolution", "tengine")),
    Case("missing_opset_import", lambda: model([node("FastGelu", ["X"], ["Y"], "com.microsoft")], [X], [Y]),
         "missing_opset_import", ("com.microsoft",)),
    Case("modified_op_without_profile", lambda: model([node("Relu6", ["X"], ["Y"])], [X], [Y], opsets={"": 7}),
         "unknown_op", ("Relu6", "ai.onnx.modified")),
    Case("declared_shape_mismatch", lambda: model([node("Relu6", ["X"], ["Y"])], [X], [tensor("Y", F, [2, 4])],
                                                  opsets={"": 7}), "shape_mismatch", ("[2, 3]", "[2, 4]"),
         profile="seed000"),
    Case("value_info_shape_mismatch", lambda: model(
        [node("Relu6", ["X"], ["h"], name="r"), node("Relu6", ["h"], ["Y"], name="s")], [X], [Y], opsets={"": 7},
        value_info=[tensor("h", F, [3, 3])]), "shape_mismatch", ("'h'", "[3, 3]"), profile="seed000"),
    Case("signature_rank", lambda: model(
        [node("Dense", ["T3", "W"], ["Y"])], [tensor("T3", F, [1, 2, 3])], [tensor("Y", F, None)],
        inits=[numpy_helper.from_array(np.ones((3, 4), np.float32), "W")], opsets={"": 7}),
        "shape_mismatch", ("rank",), profile="seed000"),
    Case("constraint_violation", lambda: model(
        [node("DepthwiseConv2d", ["X", "W"], ["Y"], kernel_shape=[2, 2])], [NHWC], [tensor("Y", F, None)],
        inits=[W33], opsets={"": 7}), "depthwiseconv2d_c1", ("kernel",), profile="seed000"),
    Case("unused_initializer", lambda: model([node("Relu", ["X"], ["Y"])], [X], [Y],
                                             inits=[numpy_helper.from_array(np.ones(3, np.float32), "spare")]),
         "unused_initializer", ("spare",), severity="warning"),
    Case("node_order", lambda: model([node("Relu", ["h"], ["Y"], name="second"),
                                      node("Relu", ["X"], ["h"], name="first")], [X], [Y]),
         "node_order", ("topological",)),
    Case("ambiguous_reading", lambda: model(
        [node("AveragePool", ["X"], ["Y"], kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID", ceil_mode=1)],
        [tensor("X", F, [1, 1, 5, 5])], [tensor("Y", F, [1, 1, 3, 3])], opsets={"": 11}),
         "ambiguous_reading", ("averagepool_r1", "onnxruntime"), severity="warning"),
    # com.microsoft: onnx.checker accepts any node of this domain unchecked
    Case("fusedgemm_four_inputs", lambda: model(
        [node("FusedGemm", ["A", "B", "C", "C"], ["Y"], "com.microsoft", activation="Relu")],
        [tensor("A", F, [2, 3]), tensor("B", F, [3, 4]), tensor("C", F, [4])], [tensor("Y", F, [2, 4])],
        opsets=MS), "arity", ("inputs", "got 4")),
    Case("fusedconv_activation_not_allowed", lambda: model(
        [node("FusedConv", ["X", "W"], ["Y"], "com.microsoft", activation="Gelu")],
        [tensor("X", F, [1, 1, 5, 5]), tensor("W", F, [2, 1, 3, 3])], [tensor("Y", F, [1, 2, 3, 3])],
        opsets=MS), "attr_allowed", ("activation", "Gelu")),
    Case("qlinearadd_mixed_types", lambda: model(
        [node("QLinearAdd", ["A", "s", "za", "B", "s", "zb", "s", "zc"], ["C"], "com.microsoft")],
        [tensor("A", TensorProto.INT8, [2, 3]), tensor("s", F, []), tensor("za", TensorProto.INT8, []),
         tensor("B", TensorProto.UINT8, [2, 3]), tensor("zb", TensorProto.UINT8, []),
         tensor("zc", TensorProto.INT8, [])], [tensor("C", TensorProto.INT8, [2, 3])], opsets=MS),
         "type_mismatch", ("T", "tensor(int8)", "tensor(uint8)")),
    Case("attention_heads_do_not_divide", lambda: model(
        [node("Attention", ["X", "W", "Bq"], ["Y"], "com.microsoft", num_heads=5)],
        [tensor("X", F, [2, 4, 12]), tensor("W", F, [12, 36]), tensor("Bq", F, [36])], [tensor("Y", F, None)],
        opsets=MS), "attention_c3", ("num_heads",)),
    Case("subgraph_unknown_op", lambda: _if_model("FooBar", "X"), "unknown_op", ("FooBar",)),
    Case("subgraph_undefined_outer_name", lambda: _if_model("Relu", "missing"), "undefined_input", ("missing",)),
]

CLEAN: dict[str, tuple[Callable[[], onnx.ModelProto], str | None]] = {
    "fastgelu": (lambda: model([node("FastGelu", ["X", "B"], ["Y"], "com.microsoft")],
                               [X, tensor("B", F, [3])], [Y], opsets=MS), None),
    "quantizelinear": (lambda: model([node("QuantizeLinear", ["X", "s", "z"], ["Q"], "com.microsoft")],
                                     [X, tensor("s", F, []), tensor("z", TensorProto.INT8, [])],
                                     [tensor("Q", TensorProto.INT8, [2, 3])], opsets=MS), None),
    "relu6_seed000": (lambda: model([node("Relu6", ["X"], ["h"]), node("Relu", ["h"], ["Y"], name="r")], [X], [Y],
                                    opsets={"": 7}), "seed000"),
    "dense_seed000": (lambda: model([node("Dense", ["X", "W"], ["Y"])], [X], [tensor("Y", F, [2, 4])],
                                    inits=[numpy_helper.from_array(np.ones((3, 4), np.float32), "W")],
                                    opsets={"": 7}), "seed000"),
    "symbolic_batch": (lambda: model([node("Relu6", ["X"], ["Y"])], [tensor("X", F, ["N", 3])],
                                     [tensor("Y", F, ["N", 3])], opsets={"": 7}), "seed000"),
    "fusedgemm_relu": (lambda: model(
        [node("FusedGemm", ["A", "B", "C"], ["Y"], "com.microsoft", activation="Relu")],
        [tensor("A", F, [2, 3]), tensor("B", F, [3, 4]), tensor("C", F, [4])], [tensor("Y", F, [2, 4])],
        opsets=MS), None),
    "attention_bert": (lambda: model(
        [node("Attention", ["X", "W", "Bq"], ["Y"], "com.microsoft", num_heads=4)],
        [tensor("X", F, ["batch", 4, 12]), tensor("W", F, [12, 36]), tensor("Bq", F, [36])],
        [tensor("Y", F, ["batch", 4, 12])], opsets=MS), None),
    "tengine_relu": (lambda: model([node("ReLU", ["X"], ["Y"], "tengine")], [X], [Y],
                                   opsets={"": 18, "tengine": 1}), None),
}
