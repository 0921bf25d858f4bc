"""What the validator knows about one value: its type string and its shape (dims int or `Sym`).

Types are written as the registry writes them (`tensor(float)`, `seq(tensor(int64))`), so a type
constraint is a set membership test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from opset.dtypes import (
    CODE_TO_ELEMENT,
    ELEMENT_TYPES,
    inner_type,
    map_parts,
    proto_type_text,
    tensor_element,
    type_kind,
)
from opset.formula import Sym, Undecided
from opset.formula.graph_value import GraphValue, Port
from opset.onnx_proto import pb
from opset.validate.outcomes import Outcomes

Dim = int | Sym
Shape = tuple[Dim, ...]


class Facts(NamedTuple):
    """A tensor's (or an optional tensor's) shape; for a sequence (or an optional one) `shape` is the shape its
    elements share (onnx's sequence element shape: dims that differ are unknown) and `elements` each element's
    shape, where the number of elements is known. A named tuple, not a dataclass: node signatures hash and compare
    facts for every node of a model, and a tuple does both in C (the 10,000-node chain: 89 -> N ms)."""

    type: str | None  # None: unknown
    shape: Shape | None  # None: unknown rank
    elements: tuple[Shape | None, ...] | None = None


UNKNOWN = Facts(None, None)
_TENSOR_TYPES = {code: f"tensor({name})" for code, name in CODE_TO_ELEMENT.items()}


class FreshDims:
    """Fresh symbols for dims nobody named; one counter per validation run."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def new(self) -> Sym:
        self.count += 1
        return named_dim(f"?{self.count}")

    def drawn_since(self, count: int) -> set[Sym]:
        """The symbols drawn after the counter stood at `count`."""
        return {named_dim(f"?{k}") for k in range(count + 1, self.count + 1)}


_NAMED_DIMS: dict[str, Sym] = {}


def named_dim(name: str) -> Sym:
    """`Sym(name)`, one object per name (dims are compared in every node signature, and one object compares
    equal to itself without looking inside)."""
    found = _NAMED_DIMS.get(name)
    if found is None:
        if len(_NAMED_DIMS) >= 10_000:
            _NAMED_DIMS.clear()
        found = _NAMED_DIMS[name] = Sym(name)
    return found


def tensor_type(elem_type: int) -> str | None:
    return _TENSOR_TYPES.get(elem_type)


def type_text(tp: pb.TypeProto) -> str | None:
    """`tensor(float)`, `seq(tensor(int64))`, ...; None when the type is absent or its element unknown."""
    return proto_type_text(tp)


def declared_shape(tp: pb.TypeProto, fresh: FreshDims) -> Shape | None:
    """A tensor type's shape: dim_value -> int, dim_param -> Sym(name), neither -> a fresh symbol. A sequence's or
    an optional's: the shape of what it holds (a sequence's elements share it)."""
    kind = tp.WhichOneof("value")
    if kind == "sequence_type":
        return declared_shape(tp.sequence_type.elem_type, fresh)
    if kind == "optional_type":
        return declared_shape(tp.optional_type.elem_type, fresh)
    if kind == "tensor_type":
        tt = tp.tensor_type
    elif kind == "sparse_tensor_type":
        tt = tp.sparse_tensor_type
    else:
        return None
    if not tt.HasField("shape"):
        return None
    dims: list[Dim] = []
    for d in tt.shape.dim:
        which = d.WhichOneof("value")
        if which == "dim_value":
            dims.append(d.dim_value)
        elif which == "dim_param" and d.dim_param:
            dims.append(named_dim(d.dim_param))
        else:
            dims.append(fresh.new())
    return tuple(dims)


def value_info_facts(vi: pb.ValueInfoProto, fresh: FreshDims) -> Facts:
    return Facts(type_text(vi.type), declared_shape(vi.type, fresh))


def read_value_info(vi: pb.ValueInfoProto, fresh: FreshDims) -> tuple[str, Facts]:
    """A declared value's name and facts."""
    return vi.name, value_info_facts(vi, fresh)


class _Declaration(NamedTuple):
    name: str
    facts: Facts
    fresh: tuple[int, ...]  # positions in `facts.shape` of the dims nobody named: each run draws its own


_DECLARED: Outcomes[_Declaration] = Outcomes()


def kept_value_info(vi: pb.ValueInfoProto, fresh: FreshDims) -> tuple[str, Facts]:
    """`read_value_info`, kept by the declaration's bytes across runs (serialising one costs a fifth of reading its
    dims through protobuf). A dim nobody named is a fresh symbol of the run: drawn anew at each use, in order."""
    data = vi.SerializeToString()
    found = _DECLARED.get(data)
    if found is None:
        drawn = fresh.count
        name, facts = read_value_info(vi, fresh)
        new = fresh.drawn_since(drawn)
        positions = tuple(k for k, d in enumerate(facts.shape or ()) if d in new)
        if len(positions) == len(new):  # (else the shape does not hold each drawn dim once: read it each time)
            _DECLARED.put(data, _Declaration(name, facts, positions))
        return name, facts
    if not found.fresh:
        return found.name, found.facts
    shape = list(found.facts.shape or ())
    for k in found.fresh:
        shape[k] = fresh.new()
    return found.name, Facts(found.facts.type, tuple(shape), found.facts.elements)


def formula_shape(facts: Facts) -> tuple[Any, ...] | None:
    """What formulas see as a value's shape (`graph_shapes`): a tensor's dims; for a sequence the list of its
    elements' shapes, None while their number is not known (its `shape` is only what they share)."""
    if is_sequence_type(facts.type):
        return facts.elements
    return facts.shape


def declared_graph(graph: pb.GraphProto, fresh: FreshDims | None = None) -> GraphValue:
    """A graph's inputs and outputs as it declares them (value_info types and shapes; None where absent)."""
    dims = fresh or FreshDims()

    def port(vi: pb.ValueInfoProto) -> Port:
        return Port(vi.name, *_port_facts(value_info_facts(vi, dims)))

    return GraphValue(inputs=tuple(port(vi) for vi in graph.input), outputs=tuple(port(vi) for vi in graph.output))


def _port_facts(facts: Facts) -> tuple[str | None, tuple[Any, ...] | None]:
    return facts.type, formula_shape(facts)


def tensor_facts(t: pb.TensorProto) -> Facts:
    return Facts(_TENSOR_TYPES.get(t.data_type), tuple(t.dims[:]))  # a slice of a repeated field is the fast read


def shapes_conflict(a: Shape, b: Shape) -> bool:
    """Known ranks differ, or two int dims differ (symbols never conflict: they may take any value)."""
    if len(a) != len(b):
        return True
    for x, y in zip(a, b, strict=True):
        if type(x) is int and type(y) is int and x != y:
            return True
    return False


def merge_shapes(inferred: Shape | None, declared: Shape | None) -> Shape | None:
    """The more precise of two agreeing shapes, dim by dim (an int beats a symbol)."""
    if inferred is None:
        return declared
    if declared is None or len(declared) != len(inferred):
        return inferred
    return tuple(d if type(i) is not int and type(d) is int else i for i, d in zip(inferred, declared, strict=True))


def format_shape(shape: Shape | None) -> str:
    if shape is None:
        return "unknown"
    return "[" + ", ".join(str(d) for d in shape) + "]"


def same_dim(a: Dim, b: Dim) -> bool | None:
    """True/False when decidable, None when not."""
    try:
        return bool(a == b)
    except Undecided:
        return None


def is_sequence_type(type_: str | None) -> bool:
    """A sequence, or an optional sequence: its formula value is the list of its elements' shapes."""
    return type_ is not None and (type_.startswith("seq(") or type_.startswith("optional(seq("))


def common_shape(elements: tuple[Shape | None, ...], fresh: FreshDims) -> Shape | None:
    """The shape every element has, as onnx's sequence element shape: a dim the elements disagree on is unknown
    (a fresh symbol); no shape when their ranks differ or some element's shape is unknown (or there is none)."""
    if not elements or any(e is None for e in elements):
        return None
    first = elements[0]
    assert first is not None
    if any(e is not None and len(e) != len(first) for e in elements):
        return None
    dims: list[Dim] = []
    for i, d in enumerate(first):
        same = all(e is not None and same_dim(e[i], d) for e in elements)
        dims.append(d if same else fresh.new())
    return tuple(dims)


def type_proto(text: str, shape: Sequence[int | str | None] | None = None) -> pb.TypeProto | None:
    """The TypeProto of a type text (the inverse of `type_text`); `shape` is a tensor's, or what a sequence's
    elements or an optional's content share: dims as ints, names (dim_param) or None (unknown). None for text
    that is no type."""
    tp = pb.TypeProto()
    kind = type_kind(text)
    if kind == "tensor":
        element = ELEMENT_TYPES.get(tensor_element(text) or "")
        if element is None:
            return None
        tp.tensor_type.elem_type = element[0]
        if shape is not None:
            dims = tp.tensor_type.shape
            dims.SetInParent()  # a rank-0 value has a shape with no dims, not no shape
            for d in shape:
                dim = dims.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                elif isinstance(d, str):
                    dim.dim_param = d
        return tp
    if kind in ("seq", "optional"):
        inner = type_proto(inner_type(text) or "", shape)
        if inner is None:
            return None
        (tp.sequence_type if kind == "seq" else tp.optional_type).elem_type.CopyFrom(inner)
        return tp
    parts = map_parts(text) if kind == "map" else None
    key = ELEMENT_TYPES.get(parts[0]) if parts is not None else None
    value = type_proto(parts[1]) if parts is not None else None
    if key is None or value is None:
        return None
    tp.map_type.key_type = key[0]
    tp.map_type.value_type.CopyFrom(value)
    return tp
