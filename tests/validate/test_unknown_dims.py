"""A formula's `unknown('tag')` dim (NonZero's count, TopK's k without its value) is a dim of its node: the same tag in
two nodes is two dims, and one node's outputs share theirs."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from opset.formula.symbolic import holds_unknown
from opset.validate import check_model


def _model() -> onnx.ModelProto:
    nodes = [helper.make_node("NonZero", ["x"], ["a"]), helper.make_node("NonZero", ["y"], ["b"]),
             helper.make_node("NonZero", ["x"], ["a2"]),  # the same signature as the first: checked again
             helper.make_node("TopK", ["x", "k"], ["values", "indices"])]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
              helper.make_tensor_value_info("y", TensorProto.FLOAT, [4]),
              helper.make_tensor_value_info("k", TensorProto.INT64, [1])]
    outputs = [helper.make_tensor_value_info(n, TensorProto.INT64, None) for n in ("a", "b", "a2", "indices")]
    graph = helper.make_graph(nodes, "g", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_the_same_tag_in_two_nodes_is_two_dims() -> None:
    facts = check_model(_model()).facts
    counts = [facts[n].shape for n in ("a", "b", "a2")]
    assert all(s is not None and len(s) == 2 and s[0] == 1 for s in counts), counts
    assert len({s[1] for s in counts if s is not None}) == 3, counts  # was: one `?nonzero` for all three


def test_a_nodes_outputs_share_its_unknown_dim() -> None:
    facts = check_model(_model()).facts
    values, indices = facts["values"].shape, facts["indices"].shape
    assert values is not None and indices is not None and values == indices and len(values) == 1
    assert values[0] not in {d for n in ("a", "b", "a2") for d in (facts[n].shape or ())}


def test_no_formula_tag_reaches_the_facts() -> None:
    facts = check_model(_model()).facts
    assert not [(n, f.shape) for n, f in facts.items() if any(holds_unknown(d) for d in f.shape or ())]


def test_a_rank_nine_expand_without_its_shape_values_has_nine_unknown_dims() -> None:
    """Was: Expand's formula listed eight literal tags, so a ninth dim was an index error, reported as an error
    of a valid node (its formulas now take `unknown('d', i)`, as Resize, DFT, Col2Im, AffineGrid and MaxUnpool)."""
    node = helper.make_node("Expand", ["x", "shape"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1] * 9),
                                            helper.make_tensor_value_info("shape", TensorProto.INT64, [9])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 9)])
    result = check_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]))
    shape = result.facts["y"].shape
    assert result.diagnostics == []
    assert shape is not None and len(set(shape)) == 9
