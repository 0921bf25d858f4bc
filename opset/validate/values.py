"""The validated type and shape of every main-graph value, for people (`opset validate --json`'s `values`)
and for tools (`opset infer` writes them into the model as `value_info`, as onnx.shape_inference does)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import onnx

from opset.validate.facts import Dim, Facts, is_sequence_type, type_proto

_FRESH = "?"  # FreshDims names unnamed dims "?1", "?2": a dim nobody knows, written as unknown


def dim_value(d: Dim) -> int | str | None:
    """An int, a symbolic dim's name (or expression, `2*N`), or None for a dim nobody named."""
    if isinstance(d, int):
        return d
    text = str(d)
    return None if text.startswith(_FRESH) else text


def value_entry(facts: Facts) -> dict[str, Any]:
    """`{"type": "float", "shape": [1, 64, "N", 56]}`; a type or shape not known is null. A container keeps its
    type text (`seq(tensor(float))`); an optional's shape is its content's; a sequence has no shape but an
    `element_shape` (what its elements share) and, where their number is known, `elements` (each one's shape)."""
    type_ = facts.type
    if type_ is not None and type_.startswith("tensor(") and type_.endswith(")"):
        type_ = type_[len("tensor("):-1]
    shape = [dim_value(d) for d in facts.shape] if facts.shape is not None else None
    if not is_sequence_type(facts.type):
        return {"type": type_, "shape": shape}
    elements = [None if e is None else [dim_value(d) for d in e] for e in facts.elements] \
        if facts.elements is not None else None
    return {"type": type_, "shape": None, "element_shape": shape, "elements": elements}


def values_json(facts: Mapping[str, Facts]) -> dict[str, dict[str, Any]]:
    return {name: value_entry(f) for name, f in facts.items() if name}


def annotate(model: onnx.ModelProto, facts: Mapping[str, Facts]) -> onnx.ModelProto:
    """A copy of `model` whose main graph declares every inferred tensor value: `value_info` for the values
    nodes compute, and the missing element type or shape of each graph output. Declared facts are kept
    where they say more (the validator already merged them)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    outputs = {o.name: o for o in graph.output}
    skip = {i.name for i in graph.input} | {t.name for t in graph.initializer}
    kept = [vi for vi in graph.value_info if vi.name not in facts]
    del graph.value_info[:]
    graph.value_info.extend(kept)
    for node in graph.node:
        for name in node.output:
            if not name or name in skip or name not in facts:
                continue
            vi = _value_info(name, facts[name])
            if vi is None:
                continue
            if name in outputs:
                _fill_output(outputs[name], vi)
            else:
                graph.value_info.append(vi)
    return out


def _value_info(name: str, facts: Facts) -> onnx.ValueInfoProto | None:
    """A tensor's type and shape; a sequence's or optional's type with the shape of what it holds (a
    sequence's element shape); a map's type. None where the type is not known."""
    if facts.type is None:
        return None
    shape = [dim_value(d) for d in facts.shape] if facts.shape is not None else None
    tp = type_proto(facts.type, shape)
    if tp is None:
        return None
    vi = onnx.ValueInfoProto(name=name)
    vi.type.CopyFrom(tp)
    return vi


def _fill_output(declared: onnx.ValueInfoProto, inferred: onnx.ValueInfoProto) -> None:
    if declared.type.WhichOneof("value") is None:
        declared.type.CopyFrom(inferred.type)
        return
    if declared.type.WhichOneof("value") != "tensor_type":
        return  # a declared container type is the model's word
    tensor = declared.type.tensor_type
    if not tensor.elem_type:
        tensor.elem_type = inferred.type.tensor_type.elem_type
    if not tensor.HasField("shape") and inferred.type.tensor_type.HasField("shape"):
        tensor.shape.CopyFrom(inferred.type.tensor_type.shape)

