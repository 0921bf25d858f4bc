"""EyeLike: the kernel against onnx.reference, the shape formula against onnx, disallowed dtypes, and the validator's
output type (dtype, else the input's)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper

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

OP = "EyeLike"
X = np.zeros((3, 4), np.float32)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, dict(k=2, dtype=onnx.TensorProto.INT32), [X], all_since(OP), id="upper"),
    OracleCase(OP, dict(k=-1, dtype=onnx.TensorProto.BOOL), [X], all_since(OP), id="lower_bool"),
    OracleCase(OP, dict(k=-5), [np.zeros((2, 2), np.uint16)], all_since(OP), id="off_the_matrix"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [shape], attrs) for v in (9, 22) for shape in ([3, 4], [0, 2])
          for attrs in ({}, {"dtype": onnx.TensorProto.DOUBLE, "k": 1})]
REJECTED = [
    (shape_case(OP, 9, [[2, 2]], {"dtype": onnx.TensorProto.STRING}), "attr_allowed"),
    (shape_case(OP, 9, [[2, 2]], {"dtype": onnx.TensorProto.BFLOAT16}), "attr_allowed"),  # from opset 22
    (shape_case(OP, 22, [[2, 2, 2]]), "rank"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("attrs", "want"), [({}, "tensor(int32)"), ({"dtype": onnx.TensorProto.FLOAT16},
                                                                       "tensor(float16)")])
def test_validator_output_type(attrs: dict[str, int], want: str) -> None:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.INT32, ["N", 4])
    graph = helper.make_graph([helper.make_node(OP, ["x"], ["y"], **attrs)], "g", [x], [onnx.ValueInfoProto(name="y")])
    result = check_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)]))
    assert node_diagnostics(result.diagnostics) == []
    assert result.facts["y"].type == want and [str(d) for d in result.facts["y"].shape or ()] == ["N", "4"]


def test_a_bfloat16_input_without_dtype_gives_bfloat16() -> None:
    """The output takes the input's type when `dtype` is absent, a narrow one too (the kernel received bfloat16
    widened to float32 and answered float)."""
    import ml_dtypes
    import numpy as np

    from conformance.backends.reference import reference_outputs
    from conformance.registry import current_registry
    from opset.infer import resolve_attributes

    version = current_registry().op("ai.onnx", "EyeLike").version(22)
    x = np.zeros((2, 3), ml_dtypes.bfloat16)
    (y,) = reference_outputs(version, [x], resolve_attributes(version, {}, [[2, 3]]))
    assert y.dtype == np.dtype(ml_dtypes.bfloat16)
    assert y.astype(np.float32).tolist() == [[1, 0, 0], [0, 1, 0]]
