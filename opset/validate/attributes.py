"""A node's attributes as plain values for the formulas, with the proto type checked against the schema.

The proto carries the attribute's declared type, which plain values lose (an empty list could be
`ints` or `floats`), so the type check happens here; names, required, allowed values, ranges and
lengths are `opset.infer.validate_attributes`'s job.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from opset.attr_types import ATTR_TYPES, BY_PROTO
from opset.onnx_proto import pb


def _text(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def plain_value(attr: pb.AttributeProto) -> Any:
    """The value formulas see: numbers, strings and lists of them; protos for tensors, graphs and types.
    None for an attribute whose type is not set."""
    entry = BY_PROTO.get(attr.type)
    if entry is None:
        return None
    value = getattr(attr, entry.field)
    if entry.name == "string":
        return _text(value)
    if entry.name == "strings":
        return [_text(s) for s in value]
    return list(value) if entry.is_list else value


def hashable_key(name: str, type_name: str, value: Any, attr: pb.AttributeProto) -> Hashable:
    entry = ATTR_TYPES.get(type_name)
    if entry is None or not entry.literal:  # protos (and unset types) are keyed by their bytes
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
            entry = BY_PROTO.get(attr.type)
            got = entry.name if entry is not None else "undefined"
            want = schema_types.get(attr.name)
            if want is not None and want != got:
                self.mistyped.append((attr.name, want, got))
                parts.append((attr.name, "mistyped"))
                continue
            value = plain_value(attr)
            self.given[attr.name] = value
            parts.append(hashable_key(attr.name, got, value, attr))
        self.key: Hashable = tuple(parts)


NO_ATTRIBUTES = NodeAttributes([], {})
