"""SequenceMap's hint: a body graph over the sequence's samples and the outer values it reads (control flow). The
other sequence and optional ops draw from their YAML (sequence-input domains, docs/format.md "Domains")."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.containers import sequence_shapes
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import integers
from opset.cells import cell_type
from opset.dtypes import inner_type, tensor_element


def _sequence_map_case(draw: DrawFn, ctx: DrawContext) -> None:
    """A body (from the body library) over the samples: 0..3 tensors in input_sequence (of one rank; one shape for
    all, or each its own), 0..2 additional inputs (a tensor passed whole, or a sequence as long as the first), 1..3
    outputs each computed from one of the body's inputs, reading outer values now and then. Everything keeps the
    cell's element type, so every output sequence has the sequence type the cell names."""
    from onnx import helper

    from conformance.strategies.graph_bodies import GraphBuilder, outer_values, steps, tensor_type

    element = tensor_element(inner_type(cell_type(ctx.dtype)) or "")
    assert element is not None
    shapes = sequence_shapes(draw, ctx, min_length=draw(st.sampled_from([2, 0])), max_length=3)
    extras: list[tuple[str, Any]] = []  # ("seq", element shapes) or ("tensor", shape) per additional input
    # telling choices first (Hypothesis starts from them): an additional sequence, outputs from additional inputs
    for _ in range(draw(st.sampled_from([1, 2, 0]))):
        if draw(st.sampled_from([True, False])):
            extras.append(("seq", sequence_shapes(draw, ctx, min_length=len(shapes), max_length=len(shapes))))
        else:
            extras.append(("tensor", [draw(integers(1, ctx.max_side)) for _ in range(draw(integers(0, 2)))]))
    outer = outer_values(draw, "outer_", [(element, [])])
    g = GraphBuilder("body", ctx.version.since, "body_")
    declared = [_held(shapes), *(_held(layout) if kind == "seq" else layout for kind, layout in extras)]
    inputs = []
    for shape in declared:  # a dim the samples disagree on is declared unknown (None)
        inputs.append(g.fresh())
        g.inputs.append(helper.make_tensor_value_info(inputs[-1], tensor_type(element), shape))
    for _ in range(draw(integers(1, 3))):
        k = draw(st.sampled_from(list(reversed(range(len(inputs))))))
        value = steps(draw, g, inputs[k], element, [], outer) if draw(integers(0, 3)) else inputs[k]
        value = g.op("Identity", [value])  # a graph output names a value once
        g.outputs.append(helper.make_tensor_value_info(value, tensor_type(element), declared[k]))
    ctx.scratch["sequence_map"] = {"body": g.build(), "extras": extras}
    ctx.shapes["input_sequence"] = shapes
    ctx.shapes["additional_inputs"] = [layout for _, layout in extras]
    ctx.fixed |= {"input_sequence", "additional_inputs"}
    ctx.outer.update(outer)
    ctx.scratch.setdefault("arity", {})["out_sequence"] = len(g.outputs)


def _held(shapes: list[list[int]]) -> list[int | None]:
    """What a body input declares of a sequence's samples: the dims every element shares (None where they
    differ)."""
    if not shapes:
        return []
    return [d if all(s[i] == d for s in shapes) else None for i, d in enumerate(shapes[0])]


def _sequence_map_values(draw: DrawFn, ctx: DrawContext) -> Any:
    """The additional inputs: a sequence of tensors, or a tensor, each of the cell's element type."""
    from conformance.strategies.values import SEEDS, fill_array

    element = tensor_element(inner_type(cell_type(ctx.dtype)) or "") or ""
    return [[fill_array(draw(SEEDS), element, s) for s in layout] if kind == "seq"
            else fill_array(draw(SEEDS), element, layout) for kind, layout in ctx.scratch["sequence_map"]["extras"]]


SEQUENCE_MAP_HINT = OpHint(shapes=_sequence_map_case, generic_attributes=False,
                           attributes={"body": lambda draw, ctx: ctx.scratch["sequence_map"]["body"]},
                           values={"additional_inputs": _sequence_map_values})
