"""SequenceEmpty: the kernel against onnx.reference (an empty list whatever `dtype` says), the shape formula against
onnx's shape inference, and the output type the validator reads from `dtype` (float without it)."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    all_since,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "SequenceEmpty"

CASES = [
    OracleCase(OP, {}, [], all_since(OP), id="default"),
    OracleCase(OP, {"dtype": TensorProto.INT64}, [], all_since(OP), id="int64"),
    OracleCase(OP, {"dtype": TensorProto.BOOL}, [], all_since(OP), oracle="ort", id="bool"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# onnx states no element shape of an empty sequence; the formula gives no elements
SHAPES = [shape_case(OP, 11, [], not_inferred_by_onnx={0: []}),
          shape_case(OP, 11, [], {"dtype": TensorProto.DOUBLE}, not_inferred_by_onnx={0: []})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 11, [], {"dtype": TensorProto.BFLOAT16}), "attr_allowed"),
    (shape_case(OP, 11, [], {"dtype": 99}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("dtype", "want"), [(None, "seq(tensor(float))"), (TensorProto.INT32, "seq(tensor(int32))")])
def test_the_validator_types_the_sequence_from_dtype(dtype: int | None, want: str) -> None:
    attrs = {} if dtype is None else {"dtype": dtype}
    node = helper.make_node(OP, [], ["s"], **attrs)
    out = onnx.ValueInfoProto(name="s")
    model = helper.make_model(helper.make_graph([node], "g", [], [out]), opset_imports=[helper.make_opsetid("", 11)])
    result = check_model(model)
    assert not node_diagnostics(result.diagnostics), node_diagnostics(result.diagnostics)
    assert result.facts["s"].type == want and result.facts["s"].elements == ()
