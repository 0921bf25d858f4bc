"""A structured diff between two complete versions of one op, for the docs.

The loader hands out complete versions, so the diff compares what a user of each version sees,
not what the YAML restates: an attribute inherited unchanged is no change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from opset.formula import Formula
from opset.model import Attribute, OpVersion, Param

ChangeKind = Literal["added", "removed", "changed", "widened", "narrowed", "documentation"]


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: `subject` is what changed (`attribute count_include_pad`), `detail` says how."""

    kind: ChangeKind
    subject: str
    detail: str = ""


def diff_versions(old: OpVersion, new: OpVersion) -> list[Change]:
    """Every difference from `old` to `new`, attributes first, documentation last."""
    changes: list[Change] = []
    changes += _diff_attributes(old.attributes, new.attributes)
    changes += _diff_params("input", old.inputs, new.inputs)
    changes += _diff_params("output", old.outputs, new.outputs)
    changes += _diff_type_constraints(old, new)
    changes += _diff_named("let", {k: f.text for k, f in old.lets.items()}, {k: f.text for k, f in new.lets.items()})
    changes += _diff_named("constraint", {c.id: c.expr.text for c in old.constraints},
                           {c.id: c.expr.text for c in new.constraints})
    if (old.summary, old.doc) != (new.summary, new.doc) or _docs_differ(old, new):
        changes.append(Change("documentation", "documentation", "text revised"))
    return changes


def _diff_attributes(old: Mapping[str, Attribute], new: Mapping[str, Attribute]) -> list[Change]:
    changes = [Change("added", f"attribute `{n}`", _attribute_summary(new[n])) for n in new if n not in old]
    changes += [Change("removed", f"attribute `{n}`") for n in old if n not in new]
    for name in (n for n in new if n in old):
        changes += _diff_attribute(old[name], new[name])
    return changes


def _diff_attribute(old: Attribute, new: Attribute) -> list[Change]:
    subject = f"attribute `{old.name}`"
    changes: list[Change] = []
    if old.type != new.type:
        changes.append(Change("changed", subject, f"type {old.type} → {new.type}"))
    if old.required != new.required:
        changes.append(Change("changed", subject, "now required" if new.required else "now optional"))
    if _default_text(old) != _default_text(new):
        changes.append(Change("changed", subject, f"default {_default_text(old)} → {_default_text(new)}"))
    if old.allowed != new.allowed:
        changes.append(_set_change(subject, "allowed values", old.allowed, new.allowed))
    if old.range != new.range:
        changes.append(Change("changed", subject, f"range {_range_text(old.range)} → {_range_text(new.range)}"))
    if _text(old.length) != _text(new.length):
        before, after = _text(old.length) or "any", _text(new.length) or "any"
        changes.append(Change("changed", subject, f"length {before} → {after}"))
    return changes


def _set_change(subject: str, what: str, old: tuple[Any, ...] | None, new: tuple[Any, ...] | None) -> Change:
    """`None` means unrestricted: going to None widens, coming from None narrows."""
    if old is None or new is None:
        kind: ChangeKind = "widened" if new is None else "narrowed"
        return Change(kind, subject, f"{what}: {'any' if new is None else _values(new)}")
    added = [v for v in new if v not in old]
    dropped = [v for v in old if v not in new]
    if added and not dropped:
        return Change("widened", subject, f"{what} + {_values(added)}")
    if dropped and not added:
        return Change("narrowed", subject, f"{what} − {_values(dropped)}")
    return Change("changed", subject, f"{what} + {_values(added)}, − {_values(dropped)}")


def _diff_params(role: str, old: tuple[Param, ...], new: tuple[Param, ...]) -> list[Change]:
    old_by_name = {p.name: p for p in old}
    new_by_name = {p.name: p for p in new}
    changes = [Change("added", f"{role} `{p.name}`", _param_summary(p)) for p in new if p.name not in old_by_name]
    changes += [Change("removed", f"{role} `{p.name}`") for p in old if p.name not in new_by_name]
    for p in new:
        before = old_by_name.get(p.name)
        if before is not None:
            changes += _diff_param(role, before, p)
    if not changes and [p.name for p in old] != [p.name for p in new]:
        changes.append(Change("changed", f"{role}s", "order " + ", ".join(p.name for p in new)))
    return changes


def _diff_param(role: str, old: Param, new: Param) -> list[Change]:
    subject = f"{role} `{old.name}`"
    changes: list[Change] = []
    if old.optional != new.optional:
        changes.append(Change("changed", subject, "now optional" if new.optional else "now required"))
    if old.variadic != new.variadic:
        changes.append(Change("changed", subject, "now variadic" if new.variadic else "no longer variadic"))
    if old.type != new.type:
        changes.append(Change("changed", subject, f"type {old.type} → {new.type}"))
    if old.shape != new.shape:
        changes.append(Change("changed", subject, f"shape {_shape_text(old.shape)} → {_shape_text(new.shape)}"))
    if _text(old.formula) != _text(new.formula):
        changes.append(Change("changed", subject, "shape formula changed"))
    return changes


def _diff_type_constraints(old: OpVersion, new: OpVersion) -> list[Change]:
    changes = [Change("added", f"type `{n}`", _values(tc.types)) for n, tc in new.type_constraints.items()
               if n not in old.type_constraints]
    changes += [Change("removed", f"type `{n}`") for n in old.type_constraints if n not in new.type_constraints]
    for name, tc in new.type_constraints.items():
        before = old.type_constraints.get(name)
        if before is not None and set(before.types) != set(tc.types):
            changes.append(_set_change(f"type `{name}`", "types", before.types, tc.types))
    return changes


def _diff_named(what: str, old: dict[str, str], new: dict[str, str]) -> list[Change]:
    changes = [Change("added", f"{what} `{n}`", f"`{new[n]}`") for n in new if n not in old]
    changes += [Change("removed", f"{what} `{n}`") for n in old if n not in new]
    changes += [Change("changed", f"{what} `{n}`", f"`{old[n]}` → `{new[n]}`") for n in new
                if n in old and old[n] != new[n]]
    return changes


def _docs_differ(old: OpVersion, new: OpVersion) -> bool:
    return _doc_texts(old) != _doc_texts(new)


def _doc_texts(v: OpVersion) -> list[tuple[str, str]]:
    attributes = [(a.name, a.doc) for a in v.attributes.values()]
    params = [(p.name, p.doc) for p in (*v.inputs, *v.outputs)]
    return attributes + params + [(t.name, t.doc) for t in v.type_constraints.values()]


def _attribute_summary(a: Attribute) -> str:
    parts = [a.type, "required" if a.required else f"default {_default_text(a)}"]
    return ", ".join(parts)


def _param_summary(p: Param) -> str:
    flags = [f for f, on in (("optional", p.optional), ("variadic", p.variadic)) if on]
    return ", ".join([p.type, *flags])


def _default_text(a: Attribute) -> str:
    if a.default_expr is not None:
        return f"`{a.default_expr.text}`"
    if a.default is None:
        return "none"
    return f"`{format_value(a.default)}`"


def _text(formula: Formula | None) -> str | None:
    """Versions are compared by formula text: a rewording shows in the docs even when it means the same."""
    return formula.text if formula is not None else None


def _range_text(r: tuple[float | None, float | None] | None) -> str:
    if r is None:
        return "any"
    lo, hi = r
    return f"[{'-∞' if lo is None else format_value(lo)}, {'∞' if hi is None else format_value(hi)}]"


def _shape_text(shape: tuple[str | int, ...] | None) -> str:
    return "any" if shape is None else "`[" + ", ".join(str(d) for d in shape) + "]`"


def _values(values: Any) -> str:
    return ", ".join(f"`{format_value(v)}`" for v in values)


def format_value(value: Any) -> str:
    """A YAML-like literal: strings quoted only inside lists, floats in their shortest form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(repr(v) if isinstance(v, str) else format_value(v) for v in value) + "]"
    return str(value)
