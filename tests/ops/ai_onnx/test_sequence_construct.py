"""SequenceConstruct: the kernel against onnx.reference, the shape formula against onnx's shape inference, and
the output type the validator gives from the inputs' (S follows seq(T))."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, shape_case, shape_tests

OP = "SequenceConstruct"
data = Seeded(1234)

CASES = [
    OracleCase(OP, {}, [data.f32(2, 3)], all_since(OP), id="one"),
    OracleCase(OP, {}, [data.f32(2, 3), data.f32(4, 3), data.f32()], all_since(OP), id="three_shapes"),
    OracleCase(OP, {}, [data.ints(-5, 5, (3,), np.int8), data.ints(-5, 5, (1, 2), np.int8)], all_since(OP),
               id="int8"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 11, [[2, 3], [4, 3]]),
    shape_case(OP, 11, [[7], [7], [7]]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def test_inputs_of_two_element_types_are_refused() -> None:
    with pytest.raises(TypeError, match="element types"):
        from tests.helpers import run

        run("ai.onnx", OP, 11, [np.zeros(2, np.float32), np.zeros(2, np.int64)])


def test_the_validator_types_the_sequence_from_its_tensors() -> None:
    a = helper.make_tensor_value_info("a", TensorProto.INT64, [2])
    b = helper.make_tensor_value_info("b", TensorProto.INT64, [3])
    node = helper.make_node(OP, ["a", "b"], ["s"])
    out = helper.make_tensor_sequence_value_info("s", TensorProto.INT64, None)
    model = helper.make_model(helper.make_graph([node], "g", [a, b], [out]),
                              opset_imports=[helper.make_opsetid("", 11)])
    result = check_model(model)
    assert not result.diagnostics, result.diagnostics
    facts = result.facts["s"]
    assert facts.type == "seq(tensor(int64))" and facts.elements == ((2,), (3,))
