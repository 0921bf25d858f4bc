"""Domains of sequence inputs (docs/format.md, "Domains"): `alike` draws elements of one shape but for one axis,
`rank` is the elements' rank and `count` how many there are; ConcatFromSequence's YAML draws valid cases with them."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.strategies.builder import Builder
from conformance.strategies.cases import _bind_types, draw_once
from conformance.strategies.containers import sequence_shapes
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_table import hint_for
from conformance.strategies.plan import plan_for
from conformance.strategies.schedule import schedule_for
from opset.formula import Formula
from opset.model import ValueDomain
from tests.helpers import registry

SETTINGS = settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def formula(text: str) -> Formula:
    return Formula.from_tree(Formula.checked(text).tree)


@SETTINGS
@given(st.data(), st.integers(-3, 2))
def test_alike_elements_share_a_shape_but_for_the_axis(data: st.DataObject, axis: int) -> None:
    ctx = DrawContext(registry().resolve("ai.onnx", "ConcatFromSequence", 11), "seq(tensor(float))", {}, 5)
    shapes = sequence_shapes(data.draw, ctx, min_length=1, max_length=3, rank=3, alike=True, axis=axis)
    at = axis % 3
    assert all(len(s) == 3 and s[:at] == shapes[0][:at] and s[at + 1:] == shapes[0][at + 1:] for s in shapes)
    same = sequence_shapes(data.draw, ctx, min_length=1, max_length=3, rank=2, alike=True)
    assert all(s == same[0] for s in same)


@SETTINGS
@given(st.data())
def test_concat_from_sequence_draws_concatenable_tensors(data: st.DataObject) -> None:
    """Without `alike`, each element's shape would be drawn on its own and most draws refused by the constraints."""
    version = registry().resolve("ai.onnx", "ConcatFromSequence", 11)
    case = draw_once(data.draw, version, "seq(tensor(float))")
    assert case is not None
    shapes = [list(t.shape) for t in case.inputs[0]]
    new_axis = case.attributes["new_axis"]
    if new_axis == 1:
        assert all(s == shapes[0] for s in shapes)
    else:
        at = case.attributes["axis"] % len(shapes[0])
        assert all(s[:at] + s[at + 1:] == shapes[0][:at] + shapes[0][at + 1:] for s in shapes)


@SETTINGS
@given(st.data())
def test_count_and_rank_of_a_sequence_input(data: st.DataObject) -> None:
    version = registry().resolve("ai.onnx", "SequenceAt", 11)
    sequence = version.inputs[0]
    domain = replace(sequence.domain or ValueDomain(), count=(formula("2"), formula("3")),
                     rank=(formula("2"), formula("2")))
    version = replace(version, inputs=(replace(sequence, domain=domain), *version.inputs[1:]))
    ctx = DrawContext(version, "seq(tensor(float))", _bind_types(data.draw, version, "seq(tensor(float))"), 5)
    plan = plan_for(version)
    Builder(data.draw, ctx, plan, schedule_for(version, plan, hint_shapes=False), hint_for(version), 4).run()
    shapes = ctx.shapes["input_sequence"]
    assert 2 <= len(shapes) <= 3 and all(len(s) == 2 for s in shapes)


@SETTINGS
@given(st.data())
def test_dtype_of_a_container_type_names_what_it_holds(data: st.DataObject) -> None:
    """SequenceEmpty's `dtype` names the cell's tensors' element type (left off only where its default_expr, float,
    says the same); Optional's `type` is the whole type, given exactly where the input is not."""
    empty = registry().resolve("ai.onnx", "SequenceEmpty", 11)
    for cell, code in (("seq(tensor(int32))", 6), ("seq(tensor(float))", 1)):
        case = draw_once(data.draw, empty, cell)
        assert case is not None and case.node_attributes.get("dtype", 1 if code == 1 else None) == code
    optional = registry().resolve("ai.onnx", "Optional", 15)
    case = draw_once(data.draw, optional, "seq(tensor(int8))")
    assert case is not None
    given_type = case.node_attributes.get("type")
    given_input = bool(case.inputs) and case.inputs[0] is not None
    assert (given_type is None) == given_input
    assert given_type is None or given_type.sequence_type.elem_type.tensor_type.elem_type == 3  # int8
