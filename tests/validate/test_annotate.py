"""`annotate` (`opset infer`): declarations refined by what the validator knows, as onnx.shape_inference merges
what it infers into declared outputs; never written over where they contradict it (the validator's error)."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from opset.validate import check_model
from opset.validate.values import annotate
from tests.helpers import node_diagnostics

F = TensorProto.FLOAT
Dims = list[int | str | None] | None


def _model(output: Dims, hidden: Dims = None, out_type: int = F) -> onnx.ModelProto:
    """X [2, 3] -> Relu -> h -> Neg -> Y, with Y declared `output` and h declared `hidden` (when given)."""
    x = helper.make_tensor_value_info("X", F, [2, 3])
    y = helper.make_tensor_value_info("Y", out_type, output)
    nodes = [helper.make_node("Relu", ["X"], ["h"]), helper.make_node("Neg", ["h"], ["Y"])]
    infos = [helper.make_tensor_value_info("h", F, hidden)] if hidden is not None else []
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y], value_info=infos),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def _dims(vi: onnx.ValueInfoProto) -> list[int | str | None] | None:
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else d.dim_param or None for d in tt.shape.dim]


def _annotated(model: onnx.ModelProto) -> onnx.ModelProto:
    return annotate(model, check_model(model).facts)


@pytest.mark.parametrize("declared", [[None, 3], ["batch", 3], [None, None], None])
def test_a_declared_output_is_refined_to_the_known_shape_as_onnx_does(declared: Dims) -> None:
    model = _model(declared)
    assert node_diagnostics(check_model(model).diagnostics) == []  # (incomplete_type for a declaration of no shape)
    ours = _annotated(model).graph.output[0]
    theirs = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output[0]
    assert _dims(ours) == _dims(theirs) == [2, 3]


def test_a_missing_element_type_is_filled_in() -> None:
    ours = _annotated(_model([None, 3], out_type=TensorProto.UNDEFINED)).graph.output[0]
    assert ours.type.tensor_type.elem_type == F and _dims(ours) == [2, 3]


def test_a_declared_intermediate_value_is_refined_not_replaced() -> None:
    typed = _annotated(_model([2, 3], hidden=["h0", None]))
    (hidden,) = [vi for vi in typed.graph.value_info if vi.name == "h"]
    assert _dims(hidden) == [2, 3]


@pytest.mark.parametrize(("output", "hidden"), [([5, 3], None), ([2, 3, 1], None), ([2, 3], [7, 3])])
def test_a_contradicted_declaration_is_the_validators_error_and_stays_as_written(output: Dims, hidden: Dims) -> None:
    model = _model(output, hidden)
    assert "shape_mismatch" in [d.check for d in check_model(model).diagnostics]
    typed = _annotated(model)
    assert _dims(typed.graph.output[0]) == output
    if hidden is not None:
        assert [_dims(vi) for vi in typed.graph.value_info if vi.name == "h"] == [hidden]


def test_a_contradicted_element_type_stays_as_written() -> None:
    model = _model([2, 3], out_type=TensorProto.INT64)
    assert "type_mismatch" in [d.check for d in check_model(model).diagnostics]
    assert _annotated(model).graph.output[0].type.tensor_type.elem_type == TensorProto.INT64


def test_an_unknown_dim_takes_the_name_the_validator_knows() -> None:
    model = _model([None, 3])
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "batch"
    assert _dims(_annotated(model).graph.output[0]) == ["batch", 3]
