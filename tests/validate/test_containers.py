"""Container values in the validator: sequences, optionals and maps typed through type constraints and type
relations, sequence element shapes through the formulas, declared element shapes checked, `--json` and `opset
infer` writing them."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from opset.dtypes import apply_relation, canonical_type, proto_type_text, relation_source
from opset.validate import check_model
from opset.validate.facts import type_proto, type_text
from opset.validate.values import annotate, values_json

F = TensorProto.FLOAT


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
           inits: list[onnx.TensorProto] | None = None, opset: int = 18) -> onnx.ModelProto:
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, outputs, inits or []),
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def split_at_identity(element_shape: list[int | None] | None = None) -> onnx.ModelProto:
    """SplitToSequence (lengths 2 and 4) -> SequenceAt(-1) -> Identity, and the sequence itself through Identity."""
    x = helper.make_tensor_value_info("x", F, [3, 6])
    nodes = [helper.make_node("SplitToSequence", ["x", "split"], ["seq"], axis=1),
             helper.make_node("SequenceAt", ["seq", "pos"], ["t"]),
             helper.make_node("Identity", ["t"], ["y"]),
             helper.make_node("Identity", ["seq"], ["s"])]
    inits = [numpy_helper.from_array(np.array([2, 4], np.int64), "split"),
             numpy_helper.from_array(np.array(-1, np.int64), "pos")]
    return _model(nodes, [x], [helper.make_tensor_value_info("y", F, [3, None]),
                               helper.make_tensor_sequence_value_info("s", F, element_shape or [3, None])], inits)


def optional_get() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", F, [3, 6])
    nodes = [helper.make_node("Optional", ["x"], ["o"]),
             helper.make_node("OptionalHasElement", ["o"], ["h"]),
             helper.make_node("OptionalGetElement", ["o"], ["y"])]
    return _model(nodes, [x], [helper.make_tensor_value_info("y", F, [3, 6]),
                               helper.make_tensor_value_info("h", TensorProto.BOOL, [])])


def test_a_sequence_pipeline_validates_with_its_types_and_element_shapes() -> None:
    model = split_at_identity()
    onnx.checker.check_model(model, full_check=True)
    result = check_model(model)
    assert result.diagnostics == []
    seq, t = result.facts["seq"], result.facts["t"]
    assert seq.type == "seq(tensor(float))" and seq.elements == ((3, 2), (3, 4))
    assert t.type == "tensor(float)" and t.shape == (3, 4)  # T follows element(S); the position's value picks
    assert result.facts["s"].elements == ((3, 2), (3, 4))
    assert values_json(result.facts)["seq"] == {"type": "seq(tensor(float))", "shape": None,
                                                "element_shape": [3, None], "elements": [[3, 2], [3, 4]]}


def test_an_optional_pipeline_validates_with_its_types() -> None:
    model = optional_get()
    onnx.checker.check_model(model, full_check=True)
    result = check_model(model)
    assert result.diagnostics == []
    assert (result.facts["o"].type, result.facts["o"].shape) == ("optional(tensor(float))", (3, 6))
    assert result.facts["y"].type == "tensor(float)" and result.facts["h"].type == "tensor(bool)"


def test_a_declared_element_shape_the_elements_contradict_is_reported() -> None:
    diagnostics = check_model(split_at_identity([3, 5])).diagnostics
    assert [d.check for d in diagnostics] == ["shape_mismatch"], diagnostics
    assert "element 0 has shape [3, 2]" in diagnostics[0].message


def test_a_container_type_is_checked_against_the_type_constraint() -> None:
    """Identity takes sequences from opset 14 and optionals from 16: earlier, a sequence is not one of its types."""
    s = helper.make_tensor_sequence_value_info("s", F, [2])
    out = helper.make_tensor_sequence_value_info("o", F, [2])
    node = helper.make_node("Identity", ["s"], ["o"])
    assert check_model(_model([node], [s], [out], opset=14)).diagnostics == []
    checks = [d.check for d in check_model(_model([node], [s], [out], opset=13)).diagnostics]
    assert checks == ["type_not_allowed"], checks
    o = helper.make_value_info("s", helper.make_optional_type_proto(helper.make_tensor_type_proto(F, [2])))
    out_o = helper.make_value_info("o", helper.make_optional_type_proto(helper.make_tensor_type_proto(F, [2])))
    assert check_model(_model([node], [o], [out_o], opset=16)).diagnostics == []
    assert [d.check for d in check_model(_model([node], [o], [out_o], opset=15)).diagnostics] == ["type_not_allowed"]


def test_a_declared_output_type_against_the_relation_is_a_mismatch() -> None:
    """SequenceAt's T follows element(S): a float sequence's element declared int64 is wrong."""
    model = split_at_identity()
    model.graph.value_info.append(helper.make_tensor_value_info("t", TensorProto.INT64, None))
    assert "type_mismatch" in [d.check for d in check_model(model).diagnostics]


def test_opset_infer_writes_container_value_info_onnx_accepts() -> None:
    model = split_at_identity()
    result = check_model(model)
    typed = annotate(model, result.facts)
    onnx.checker.check_model(typed, full_check=True)
    infos = {v.name: v.type for v in typed.graph.value_info}
    assert type_text(infos["seq"]) == "seq(tensor(float))"
    dims = infos["seq"].sequence_type.elem_type.tensor_type.shape.dim
    assert dims[0].dim_value == 3 and not dims[1].HasField("dim_value")  # the elements disagree on dim 1
    assert [d.dim_value for d in infos["t"].tensor_type.shape.dim] == [3, 4]
    opt = annotate(optional_get(), check_model(optional_get()).facts)
    assert type_text({v.name: v.type for v in opt.graph.value_info}["o"]) == "optional(tensor(float))"


@pytest.mark.parametrize("text", ["tensor(float)", "seq(tensor(int64))", "optional(seq(tensor(bool)))",
                                  "optional(tensor(uint8))", "map(int64,tensor(float))", "map(string,tensor(double))",
                                  "seq(map(string,tensor(float)))"])
def test_type_texts_and_type_protos_round_trip(text: str) -> None:
    tp = type_proto(text)
    assert tp is not None and type_text(tp) == text == proto_type_text(tp)


def test_a_map_is_spelled_one_way() -> None:
    assert canonical_type("map(int64, float)") == canonical_type("map(int64,tensor(float))") == \
        "map(int64,tensor(float))"


@pytest.mark.parametrize(("expr", "bindings", "want"), [
    ("element(S)", {"S": "seq(tensor(float))"}, "tensor(float)"),
    ("element(S)", {"S": "optional(seq(tensor(int8)))"}, "seq(tensor(int8))"),
    ("element(S)", {"S": "tensor(float)"}, None),
    ("seq(T)", {"T": "tensor(bool)"}, "seq(tensor(bool))"),
    ("optional(V)", {"V": "seq(tensor(float))"}, "optional(seq(tensor(float)))"),
    ("unwrap(O)", {"O": "optional(tensor(int32))"}, "tensor(int32)"),
    ("unwrap(O)", {"O": "seq(tensor(int32))"}, "seq(tensor(int32))"),
    ("seq(T)", {}, None),
])
def test_type_relations_give_a_type_from_their_variable(expr: str, bindings: dict[str, str], want: str | None) -> None:
    assert apply_relation(expr, bindings) == want
    assert relation_source(expr) == expr[expr.index("(") + 1:-1]


def _if_of_sequences(then_count: int, else_count: int) -> onnx.ModelProto:
    """If whose branches each build a sequence of `*_count` [5] tensors (onnx's test_if_seq, with counts)."""
    def branch(name: str, count: int) -> onnx.GraphProto:
        const = helper.make_node("Constant", [], [f"{name}_x"],
                                 value=numpy_helper.from_array(np.ones(5, np.float32), f"{name}_v"))
        build = helper.make_node("SequenceConstruct", [f"{name}_x"] * count, [f"{name}_out"])
        return helper.make_graph([const, build], name, [],
                                 [helper.make_tensor_sequence_value_info(f"{name}_out", F, None)])

    cond = helper.make_tensor_value_info("cond", TensorProto.BOOL, [])
    node = helper.make_node("If", ["cond"], ["res"], then_branch=branch("then", then_count),
                            else_branch=branch("else", else_count))
    return _model([node], [cond], [helper.make_tensor_sequence_value_info("res", F, None)])


def test_an_if_of_sequences_gives_the_element_shapes_its_branches_agree_on() -> None:
    """A branch's sequence output reaches If's formula as the list of its element shapes (it reached it as their
    common shape, which the validator then read as a list of shapes: a TypeError on onnx's test_if_seq)."""
    same = check_model(_if_of_sequences(1, 1))
    assert same.diagnostics == []
    assert same.facts["res"] == ("seq(tensor(float))", (5,), ((5,),))
    other = check_model(_if_of_sequences(1, 2))  # the count depends on the condition: not known
    assert other.diagnostics == []
    assert other.facts["res"].type == "seq(tensor(float))" and other.facts["res"].elements is None
