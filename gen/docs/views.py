"""What the templates show, computed from the registry: version spans, diffs, layouts, example tables.

The templates only lay things out; every decision (which opsets a version covers, what changed,
where a field sits in the binary struct) is made here so it can be tested without rendering.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gen.docs.diff import Change, diff_versions, format_value
from opset.frozen import thaw
from opset.model import BinaryField, Domain, OpSchema, OpVersion
from opset.registry import Registry

# bytes of each tmfile ctype; fields sit at their natural alignment as in tm2_format.h's C structs
CTYPE_SIZES = {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "float32": 4,
               "offset_vector_int32": 4, "offset_vector_float32": 4, "offset_string": 4}
EXAMPLE_VALUES_SHOWN = 48


@dataclass(frozen=True, slots=True)
class VersionView:
    version: OpVersion
    last: int | None  # the last opset that resolves to this version; None: no opset does (a removed draft op)
    current: bool  # the version the domain's newest opset resolves to
    previous: OpVersion | None
    changes: tuple[Change, ...]

    @property
    def span(self) -> str:
        first = self.version.since
        if self.last is None or self.last < first:
            return "none (removed before any opset resolved it)"
        text = str(first) if self.last == first else f"{first} – {self.last}"
        return text + " (current)" if self.current else text


@dataclass(frozen=True, slots=True)
class LayoutRow:
    field: BinaryField
    offset: int
    attribute: str
    seed_default: Any


@dataclass(frozen=True, slots=True)
class ArrayRow:
    role: str
    name: str
    dtype: str
    shape: str
    data: str


@dataclass(frozen=True, slots=True)
class OpsetChange:
    name: str
    kind: str  # added / removed / updated
    version: OpVersion | None  # the version in the new opset (None when removed)
    previous: OpVersion | None


def version_views(op: OpSchema, domain: Domain) -> list[VersionView]:
    """Every version of `op`, oldest first, with the opsets it covers and its diff from the one before."""
    views = []
    versions = op.versions
    removed = op.status.state == "removed"
    end = (op.status.removed_at_opset - 1 if op.status.removed_at_opset else None) if removed else domain.max_opset
    for i, v in enumerate(versions):
        following = versions[i + 1].since - 1 if i + 1 < len(versions) else end
        last = v.last if v.last is not None else following
        previous = versions[i - 1] if i > 0 else None
        changes = tuple(diff_versions(previous, v)) if previous is not None else ()
        views.append(VersionView(v, last, i + 1 == len(versions) and not removed, previous, changes))
    return views


def layout_rows(version: OpVersion) -> list[LayoutRow]:
    """The Tengine parameter struct in binary order with byte offsets."""
    if version.tengine is None:
        return []
    rows, offset = [], 0
    for field in version.tengine.layout:
        size = CTYPE_SIZES.get(field.ctype)
        if size is None:
            raise ValueError(f"{version.signature}: unknown tengine ctype '{field.ctype}' of field {field.name}")
        offset = (offset + size - 1) // size * size
        name = field.attribute or field.name
        rows.append(LayoutRow(field, offset, name, version.tengine.seed_defaults.get(name,
                                                                                   version.tengine.seed_defaults.get(field.name))))
        offset += size
    return rows


def example_rows(frozen: Mapping[str, Any], role: str) -> list[ArrayRow]:
    # an omitted optional input is null; a variadic parameter holds a list of arrays (shown as name[i])
    arrays = thaw(frozen)
    rows = []
    for name, given in arrays.items():
        items = list(enumerate(given)) if isinstance(given, list) else [(None, given)]
        for i, a in items:
            if a is not None:
                label = name if i is None else f"{name}[{i}]"
                rows.append(ArrayRow(role, label, str(a.get("dtype", "?")), _shape_text(a), _data_text(a.get("data"))))
    return rows


def opset_changes(registry: Registry, domain: str, opset: int) -> list[OpsetChange]:
    """What opset `opset` of `domain` changed from `opset - 1`: ops added, removed or given a new version."""
    now = {v.name: v for v in registry.opset_contents(domain, opset)}
    before = {v.name: v for v in registry.opset_contents(domain, opset - 1)} if opset > 1 else {}
    changes = []
    for name in sorted(set(now) | set(before)):
        new, old = now.get(name), before.get(name)
        if old is None:
            changes.append(OpsetChange(name, "added", new, None))
        elif new is None:
            changes.append(OpsetChange(name, "removed", None, old))
        elif (new.domain, new.since) != (old.domain, old.since):
            changes.append(OpsetChange(name, "updated", new, old))
    return changes


def _shape_text(array: dict[str, Any]) -> str:
    shape = array.get("shape")
    if shape is None:
        shape = _nested_shape(array.get("data"))
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _nested_shape(data: Any) -> list[int]:
    shape = []
    while isinstance(data, list):
        shape.append(len(data))
        data = data[0] if data else None
    return shape


def _data_text(data: Any) -> str:
    values = list(_flat(data))
    shown = ", ".join(format_value(v) for v in values[:EXAMPLE_VALUES_SHOWN])
    if len(values) > EXAMPLE_VALUES_SHOWN:
        return f"[{shown}, …] ({len(values)} values)"
    return f"[{shown}]"


def _flat(data: Any) -> Iterator[Any]:
    if isinstance(data, list):
        for item in data:
            yield from _flat(item)
    elif data is not None:
        yield data
