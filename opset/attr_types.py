"""The attribute-type vocabulary: the one table every part of the project derives its attribute types from.

The registry spelling (`ints`), the onnx `AttributeProto` type (name and number), the `AttributeProto`
field that holds the value, the Python annotation of generated classes, Netron's name, and the check
of a literal value all come from `ATTR_TYPES`. The meta-schema's enum is filled from it when the schema is loaded.
The proto numbers are onnx's; `tests/registry/test_records.py` holds them against `onnx.AttributeProto`, so
this module stays importable without onnx.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_float(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


@dataclass(frozen=True, slots=True)
class AttrType:
    """One attribute type.

    `element` names the scalar type of a list type (`ints` -> `int`); `literal` says a YAML default,
    an allowed value or an example can spell it (tensors, graphs and type protos cannot).
    """

    name: str
    proto_name: str  # onnx AttributeProto.AttributeType name
    proto: int  # its number
    field: str  # the AttributeProto field holding the value
    annotation: str  # Python annotation in generated op classes
    netron: str  # Netron's name for it in its metadata files
    element: str | None = None
    literal: bool = False
    check: Callable[[Any], bool] | None = None  # for literal scalar types: does a plain value fit
    plain: frozenset[type] = frozenset()  # types `check` accepts every value of (not bool, an int subclass)

    @property
    def is_list(self) -> bool:
        return self.element is not None

    def accepts(self, value: Any) -> bool:
        """Does a plain value (int, float, str, list) fit this type? Non-literal types accept anything."""
        if not self.literal:
            return True
        if self.element is not None:
            if not isinstance(value, list | tuple):
                return False
            item = ATTR_TYPES[self.element]
            if set(map(type, value)) <= item.plain:  # at C speed: a forest's lists are long
                return True
            return all(item.accepts(v) for v in value)
        return self.check is not None and self.check(value)


_TABLE = (
    AttrType("int", "INT", 2, "i", "int", "int64", literal=True, check=_is_int, plain=frozenset({int})),
    AttrType("float", "FLOAT", 1, "f", "float", "float32", literal=True, check=_is_float,
             plain=frozenset({int, float})),
    AttrType("string", "STRING", 3, "s", "str", "string", literal=True, check=_is_str, plain=frozenset({str})),
    AttrType("tensor", "TENSOR", 4, "t", "onnx.TensorProto", "tensor"),
    AttrType("graph", "GRAPH", 5, "g", "onnx.GraphProto", "graph"),
    AttrType("ints", "INTS", 7, "ints", "Sequence[int]", "int64[]", element="int", literal=True),
    AttrType("floats", "FLOATS", 6, "floats", "Sequence[float]", "float32[]", element="float", literal=True),
    AttrType("strings", "STRINGS", 8, "strings", "Sequence[str]", "string[]", element="string", literal=True),
    AttrType("tensors", "TENSORS", 9, "tensors", "Sequence[onnx.TensorProto]", "tensor[]", element="tensor"),
    AttrType("graphs", "GRAPHS", 10, "graphs", "Sequence[onnx.GraphProto]", "graph[]", element="graph"),
    AttrType("sparse_tensor", "SPARSE_TENSOR", 11, "sparse_tensor", "onnx.SparseTensorProto", "sparse_tensor"),
    AttrType("type_proto", "TYPE_PROTO", 13, "tp", "onnx.TypeProto", "type_proto"),
    AttrType("type_protos", "TYPE_PROTOS", 14, "type_protos", "Sequence[onnx.TypeProto]", "type_proto[]",
             element="type_proto"),
    AttrType("sparse_tensors", "SPARSE_TENSORS", 12, "sparse_tensors", "Sequence[onnx.SparseTensorProto]",
             "sparse_tensor[]", element="sparse_tensor"),
)

ATTR_TYPES: dict[str, AttrType] = {t.name: t for t in _TABLE}
BY_PROTO: dict[int, AttrType] = {t.proto: t for t in _TABLE}
BY_PROTO_NAME: dict[str, AttrType] = {t.proto_name: t for t in _TABLE}


def value_fits(type_name: str, value: Any) -> bool:
    """Does a plain value fit the registry attribute type `type_name`? (An unknown type fits nothing.)"""
    entry = ATTR_TYPES.get(type_name)
    return entry is not None and entry.accepts(value)
