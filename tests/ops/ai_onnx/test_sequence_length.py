"""SequenceLength: the kernel against onnx.reference, the shape formula against onnx's shape inference, and the
length as a value the validator carries on (a Reshape fed by it gets a shape)."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import OracleCase, Seeded, all_since, node_diagnostics, oracle_tests, shape_case, shape_tests

OP = "SequenceLength"
data = Seeded(1234)

CASES = [
    OracleCase(OP, {}, [[data.f32(2, 3), data.f32(4, 3), data.f32(1)]], all_since(OP), id="three"),
    OracleCase(OP, {}, [[]], all_since(OP), input_types={0: "seq(tensor(int32))"}, oracle="ort", id="empty"),
    OracleCase(OP, {}, [[np.array([True])]], all_since(OP), id="bool"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 11, [[[2, 3], [4, 3]]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def test_the_length_is_a_value_the_validator_carries() -> None:
    """SplitToSequence of 3 parts -> SequenceLength -> Reshape's shape: the reshaped output is [3]."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2])
    flat = helper.make_tensor_value_info("flat", TensorProto.FLOAT, [6])
    nodes = [helper.make_node("SplitToSequence", ["x"], ["seq"], axis=0),
             helper.make_node(OP, ["seq"], ["n"]),
             helper.make_node("Unsqueeze", ["n", "zero"], ["shape"]),
             helper.make_node("Reshape", ["w", "shape"], ["y"])]
    inits = [helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
             helper.make_tensor("w", TensorProto.FLOAT, [3], [1, 2, 3])]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y, flat][:1], initializer=inits),
                              opset_imports=[helper.make_opsetid("", 13)])
    result = check_model(model)
    assert not [d for d in node_diagnostics(result.diagnostics) if d.severity == "error"], result.diagnostics
    assert result.facts["y"].shape == (3,)
