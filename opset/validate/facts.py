"""What the validator knows about one value: its type string and its shape (dims int or `Sym`).

Types are written as the registry writes them (`tensor(float)`, `seq(tensor(int64))`), so a type
constraint is a set membership test.
"""

from __future__ import annotations

from dataclasses import dataclass

import onnx

from opset.dtypes import CODE_TO_ELEMENT
from opset.formula import Sym, Undecided
from opset.formula.graph_value import GraphValue, Port

Dim = int | Sym
Shape = tuple[Dim, ...]


@dataclass(frozen=True, slots=True)
class Facts:
    type: str | None  # None: unknown
    shape: Shape | None  # None: unknown rank


UNKNOWN = Facts(None, None)
_TENSOR_TYPES = {code: f"tensor({name})" for code, name in CODE_TO_ELEMENT.items()}


class FreshDims:
    """Fresh symbols for dims nobody named; one counter per validation run."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def new(self) -> Sym:
        self.count += 1
        return Sym(f"?{self.count}")


def tensor_type(elem_type: int) -> str | None:
    return _TENSOR_TYPES.get(elem_type)


def type_text(tp: onnx.TypeProto) -> str | None:
    """`tensor(float)`, `seq(tensor(int64))`, ...; None when the type is absent or its element unknown."""
    kind = tp.WhichOneof("value")
    if kind == "tensor_type":
        return _TENSOR_TYPES.get(tp.tensor_type.elem_type)
    if kind == "sparse_tensor_type":
        elem = CODE_TO_ELEMENT.get(tp.sparse_tensor_type.elem_type)
        return f"sparse_tensor({elem})" if elem else None
    if kind == "sequence_type":
        inner = type_text(tp.sequence_type.elem_type)
        return f"seq({inner})" if inner else None
    if kind == "optional_type":
        inner = type_text(tp.optional_type.elem_type)
        return f"optional({inner})" if inner else None
    if kind == "map_type":
        key = CODE_TO_ELEMENT.get(tp.map_type.key_type)
        value = type_text(tp.map_type.value_type)
        return f"map({key},{value})" if key and value else None
    return None


def declared_shape(tp: onnx.TypeProto, fresh: FreshDims) -> Shape | None:
    """A tensor type's shape: dim_value -> int, dim_param -> Sym(name), neither -> a fresh symbol."""
    kind = tp.WhichOneof("value")
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
        elif which == "dim_param":
            dims.append(Sym(d.dim_param))
        else:
            dims.append(fresh.new())
    return tuple(dims)


def value_info_facts(vi: onnx.ValueInfoProto, fresh: FreshDims) -> Facts:
    return Facts(type_text(vi.type), declared_shape(vi.type, fresh))


def declared_graph(graph: onnx.GraphProto, fresh: FreshDims | None = None) -> GraphValue:
    """A graph's inputs and outputs as it declares them (value_info types and shapes; None where absent)."""
    dims = fresh or FreshDims()

    def port(vi: onnx.ValueInfoProto) -> Port:
        facts = value_info_facts(vi, dims)
        return Port(vi.name, facts.type, facts.shape)

    return GraphValue(inputs=tuple(port(vi) for vi in graph.input), outputs=tuple(port(vi) for vi in graph.output))


def tensor_facts(t: onnx.TensorProto) -> Facts:
    return Facts(_TENSOR_TYPES.get(t.data_type), tuple(t.dims))


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
