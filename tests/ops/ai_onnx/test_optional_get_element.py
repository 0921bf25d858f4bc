"""OptionalGetElement: the kernel against onnx.reference (what an optional holds; from 18 a tensor or sequence passes
through), the shape formula against onnx's shape inference, the constraint, and the validator's type (V follows
unwrap(O))."""

from __future__ import annotations

import onnx
import pytest
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

OP = "OptionalGetElement"
data = Seeded(1234)
X = data.f32(2, 3)
SEQ = [data.ints(0, 9, (4,), "int32"), data.ints(0, 9, (1,), "int32")]

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), input_types={0: "optional(tensor(float))"}, id="optional_tensor"),
    OracleCase(OP, {}, [SEQ], all_since(OP), input_types={0: "optional(seq(tensor(int32)))"}, id="optional_sequence"),
    OracleCase(OP, {}, [X], all_since(OP, 18), id="tensor"),
    OracleCase(OP, {}, [SEQ], all_since(OP, 18), id="sequence"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [[2, 3]]) for v in all_since(OP, 18)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [(shape_case(OP, 18, [None]), "optionalgetelement_c1")]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_an_empty_optional_is_an_error() -> None:
    from tests.helpers import run

    with pytest.raises(ValueError, match="empty"):
        run("ai.onnx", OP, 18, [None])


@pytest.mark.parametrize(("declared", "want"), [
    (helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [2])), "tensor(float)"),
    (helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.INT64, [2])), "seq(tensor(int64))"),
])
def test_the_validator_unwraps_the_type(declared: onnx.TypeProto, want: str) -> None:
    node = helper.make_node(OP, ["x"], ["o"])
    model = helper.make_model(helper.make_graph([node], "g", [helper.make_value_info("x", declared)],
                                                [onnx.ValueInfoProto(name="o")]),
                              opset_imports=[helper.make_opsetid("", 18)])
    result = check_model(model)
    assert not node_diagnostics(result.diagnostics), node_diagnostics(result.diagnostics)
    assert result.facts["o"].type == want
