"""Optional: the kernel against onnx.reference and onnxruntime (an optional of a tensor or a sequence, an empty one
typed by `type`), the shape formula against onnx's shape inference, the constraint, and the validator's type."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Optional"
data = Seeded(1234)
FLOAT = helper.make_tensor_type_proto(TensorProto.FLOAT, [2])
SEQ_INT64 = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.INT64, None))

X = data.f32(2, 3)
SEQ = [data.f32(2), data.f32(3)]

# onnx.reference wraps what Optional holds in a list ([x], [None] when empty) and onnxruntime has no Optional-28
# kernel: onnxruntime is the oracle at 15, and at 28 the optional's value is stated (the input itself)
CASES = [
    OracleCase(OP, {}, [X], (15,), oracle="ort", id="tensor"),
    OracleCase(OP, {}, [SEQ], (15,), oracle="ort", id="sequence"),
    OracleCase(OP, {"type": FLOAT}, [], (15,), oracle="ort", id="empty_tensor"),
    OracleCase(OP, {}, [X], (28,), oracle=lambda: [X], id="tensor_28"),
    OracleCase(OP, {}, [SEQ], (28,), oracle=lambda: [SEQ], id="sequence_28"),
    OracleCase(OP, {"type": SEQ_INT64}, [], (28,), oracle=lambda: [None], id="empty_sequence_28"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [[2, 3]]) for v in all_since(OP)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [(shape_case(OP, 15, []), "optional_c1"), (shape_case(OP, 28, [None]), "optional_c1")]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def _typed(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto]) -> str | None:
    model = helper.make_model(helper.make_graph([node], "g", inputs, [onnx.ValueInfoProto(name="o")]),
                              opset_imports=[helper.make_opsetid("", 15)])
    result = check_model(model)
    assert not node_diagnostics(result.diagnostics), node_diagnostics(result.diagnostics)
    return result.facts["o"].type


def test_the_validator_types_the_optional_from_its_input_or_type() -> None:
    x = helper.make_tensor_value_info("x", TensorProto.INT32, [2])
    assert _typed(helper.make_node(OP, ["x"], ["o"]), [x]) == "optional(tensor(int32))"
    assert _typed(helper.make_node(OP, [], ["o"], type=SEQ_INT64), []) == "optional(seq(tensor(int64)))"
