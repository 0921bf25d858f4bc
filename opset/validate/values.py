"""The validated type and shape of every main-graph value, for people (`opset validate --json`'s `values`)
and for tools (`opset infer` writes them into the model as `value_info`, as onnx.shape_inference does)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opset.onnx_proto import pb
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


def annotate(model: pb.ModelProto, facts: Mapping[str, Facts]) -> pb.ModelProto:
    """A copy of `model` whose main graph declares every inferred value, as onnx.shape_inference does: `value_info`
    for the values nodes compute, and each declaration (a graph output, a value_info entry) refined by what the
    validator knows: a missing element type or shape filled in, a dim that is unknown or named (`batch`) where the
    validator knows its size set to that size, an unknown dim given the name the validator knows it by. A
    declaration the validator's facts contradict (another element type, rank or size: the validator's error) is
    left as written."""
    out = pb.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    outputs = {o.name: o for o in graph.output}
    skip = {i.name for i in graph.input} | {t.name for t in graph.initializer}
    declared: dict[str, pb.ValueInfoProto] = {}
    for vi in graph.value_info:
        declared.setdefault(vi.name, vi)
    computed = [name for node in graph.node for name in node.output
                if name and name not in skip and name in facts]
    written = set(computed)
    kept = [vi for vi in graph.value_info if vi.name not in written]  # values no node of the graph computes
    for vi in kept:
        if vi.name in facts:
            refine_declaration(vi, facts[vi.name])
    new: list[pb.ValueInfoProto] = []
    for name in dict.fromkeys(computed):
        inferred = _value_info(name, facts[name])
        if name in outputs:
            refine_declaration(outputs[name], facts[name])
            continue
        before = declared.get(name)
        if before is not None:
            entry = pb.ValueInfoProto()
            entry.CopyFrom(before)
            refine_declaration(entry, facts[name])
            new.append(entry)
        elif inferred is not None:
            new.append(inferred)
    del graph.value_info[:]
    graph.value_info.extend(kept + new)
    return out


def _value_info(name: str, facts: Facts) -> pb.ValueInfoProto | None:
    """A tensor's type and shape; a sequence's or optional's type with the shape of what it holds (a
    sequence's element shape); a map's type. None where the type is not known."""
    if facts.type is None:
        return None
    shape = [dim_value(d) for d in facts.shape] if facts.shape is not None else None
    tp = type_proto(facts.type, shape)
    if tp is None:
        return None
    vi = pb.ValueInfoProto(name=name)
    vi.type.CopyFrom(tp)
    return vi


def refine_declaration(declared: pb.ValueInfoProto, facts: Facts) -> bool:
    """Refine `declared` in place by `facts` (see `annotate`); False, and `declared` unchanged, where they conflict.
    A container's declared type is kept as it is; only a tensor's element type and dims are refined, as are the
    tensor a sequence or an optional holds."""
    inferred = _value_info(declared.name, facts)
    if inferred is None:
        return True
    if declared.type.WhichOneof("value") is None:
        declared.type.CopyFrom(inferred.type)
        return True
    return _refine_type(declared.type, inferred.type)


def _refine_type(declared: pb.TypeProto, inferred: pb.TypeProto) -> bool:
    kind = declared.WhichOneof("value")
    if kind != inferred.WhichOneof("value"):
        return False
    if kind in ("sequence_type", "optional_type"):
        inner_declared = getattr(declared, kind).elem_type
        inner_inferred = getattr(inferred, kind).elem_type
        if inner_declared.WhichOneof("value") is None:
            inner_declared.CopyFrom(inner_inferred)
            return True
        return _refine_type(inner_declared, inner_inferred)
    if kind != "tensor_type":
        return True  # a map's declared type is the model's word
    tensor, theirs = declared.tensor_type, inferred.tensor_type
    if tensor.elem_type and theirs.elem_type and tensor.elem_type != theirs.elem_type:
        return False
    if not theirs.HasField("shape"):
        tensor.elem_type = tensor.elem_type or theirs.elem_type
        return True
    if not tensor.HasField("shape"):
        tensor.elem_type = tensor.elem_type or theirs.elem_type
        tensor.shape.CopyFrom(theirs.shape)
        return True
    dims = _refined_dims(list(tensor.shape.dim), list(theirs.shape.dim))
    if dims is None:
        return False
    tensor.elem_type = tensor.elem_type or theirs.elem_type
    for dim, (value, param) in zip(tensor.shape.dim, dims, strict=True):
        if value is not None:
            dim.dim_value = value  # (clears a dim_param: one field of a oneof)
        elif param is not None:
            dim.dim_param = param
    return True


def _refined_dims(declared: list[pb.TensorShapeProto.Dimension], inferred: list[pb.TensorShapeProto.Dimension]
                  ) -> list[tuple[int | None, str | None]] | None:
    """Per dim, the size or name to write (None, None: leave it); None when the two contradict each other (ranks,
    or two sizes, differ). A size beats a name, as in onnx's merge of inferred into declared shapes."""
    if len(declared) != len(inferred):
        return None
    refined: list[tuple[int | None, str | None]] = []
    for mine, theirs in zip(declared, inferred, strict=True):
        size = theirs.dim_value if theirs.HasField("dim_value") else None
        if mine.HasField("dim_value"):
            if size is not None and size != mine.dim_value:
                return None
            refined.append((None, None))
        elif size is not None:
            refined.append((size, None))
        elif not mine.dim_param and theirs.dim_param:
            refined.append((None, theirs.dim_param))
        else:
            refined.append((None, None))
    return refined
