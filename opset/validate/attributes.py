"""A node's attributes as plain values for the formulas, with the proto type checked against the schema.

The proto carries the attribute's declared type, which plain values lose (an empty list could be
`ints` or `floats`), so the type check happens here; names, required, allowed values, ranges and
lengths are `opset.infer.validate_attributes`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

import onnx

A = onnx.AttributeProto
TYPE_NAMES: dict[int, str] = {
    A.FLOAT: "float", A.INT: "int", A.STRING: "string", A.TENSOR: "tensor", A.GRAPH: "graph",
    A.FLOATS: "floats", A.INTS: "ints", A.STRINGS: "strings", A.TENSORS: "tensors", A.GRAPHS: "graphs",
    A.SPARSE_TENSOR: "sparse_tensor", A.SPARSE_TENSORS: "sparse_tensors", A.TYPE_PROTO: "type_proto",
    A.TYPE_PROTOS: "type_protos",
}
_OPAQUE = {"tensor", "graph", "tensors", "graphs", "sparse_tensor", "sparse_tensors", "type_proto", "type_protos"}


def _text(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def plain_value(attr: onnx.AttributeProto) -> Any:
    """The value formulas see: numbers, strings and lists of them; protos for tensors, graphs and types."""
    t = attr.type
    if t == A.INT:
        return attr.i
    if t == A.INTS:
        return list(attr.ints)
    if t == A.FLOAT:
        return attr.f
    if t == A.FLOATS:
        return list(attr.floats)
    if t == A.STRING:
        return _text(attr.s)
    if t == A.STRINGS:
        return [_text(s) for s in attr.strings]
    if t == A.TENSOR:
        return attr.t
    if t == A.GRAPH:
        return attr.g
    if t == A.TENSORS:
        return list(attr.tensors)
    if t == A.GRAPHS:
        return list(attr.graphs)
    if t == A.SPARSE_TENSOR:
        return attr.sparse_tensor
    if t == A.SPARSE_TENSORS:
        return list(attr.sparse_tensors)
    if t == A.TYPE_PROTO:
        return attr.tp
    if t == A.TYPE_PROTOS:
        return list(attr.type_protos)
    return None


def hashable_key(name: str, type_name: str, value: Any, attr: onnx.AttributeProto) -> Hashable:
    if type_name in _OPAQUE:
        return (name, type_name, attr.SerializeToString())
    if isinstance(value, list):
        return (name, type_name, tuple(value))
    return (name, type_name, value)


class NodeAttributes:
    """`given` (name -> plain value) for well-typed attributes, `key` for memoisation, `mistyped` for diagnostics."""

    __slots__ = ("given", "key", "mistyped")

    def __init__(self, attrs: Any, schema_types: dict[str, str]) -> None:
        self.given: dict[str, Any] = {}
        self.mistyped: list[tuple[str, str, str]] = []  # (name, expected, got)
        parts: list[Hashable] = []
        for attr in attrs:
            got = TYPE_NAMES.get(attr.type, "undefined")
            want = schema_types.get(attr.name)
            if want is not None and want != got:
                self.mistyped.append((attr.name, want, got))
                parts.append((attr.name, "mistyped"))
                continue
            value = plain_value(attr)
            self.given[attr.name] = value
            parts.append(hashable_key(attr.name, got, value, attr))
        self.key: Hashable = tuple(parts)


_NAME = re.compile(r"attribute '([^']+)'")


def attribute_check(check: str, message: str) -> tuple[str, str | None]:
    """(check id, attribute name) of an attribute problem from opset.infer (which sends the check id)."""
    name_match = _NAME.search(message)
    return check, name_match.group(1) if name_match else None


NO_ATTRIBUTES = NodeAttributes([], {})
