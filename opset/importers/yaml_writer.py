"""Reading, encoding, merging and writing op files of the registry (docs/format.md).

The importers hand over every version of an op *complete* (a "full version": attributes, inputs,
outputs and type constraints as the source states them). This module encodes them with version
inheritance (a version states only what changed), merges the result into an existing file without
touching what people wrote by hand, and writes the file only when its text changes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

TOP_LEVEL_ORDER = ("name", "domain", "category", "summary", "doc", "status", "seed_note", "no_reference_kernel",
                   "tolerance", "precision", "versions")
VERSION_ORDER = ("since", "changes", "summary", "doc", "attributes", "inputs", "outputs", "type_constraints",
                 "type_relations", "let", "dims", "constraints", "readings", "examples", "tolerance", "precision",
                 "properties", "maps_to", "tengine")
ATTRIBUTE_ORDER = ("type", "required", "default", "default_expr", "allowed", "range", "length", "hint", "domain", "doc")
PARAM_ORDER = ("name", "type", "role", "optional", "variadic", "min_arity", "homogeneous", "shape", "domain",
               "data_dependent", "value", "doc")

# Keys that only people write; a refresh copies them over from the existing file unchanged.
HAND_ATTRIBUTE_KEYS = ("default_expr", "allowed", "range", "length", "hint", "signature", "domain")
HAND_PARAM_KEYS = ("role", "shape", "domain", "data_dependent", "value", "types")
# Version keys the importer produces; every other key of an existing version is kept as it is.
IMPORTED_VERSION_KEYS = ("since", "changes", "attributes", "inputs", "outputs", "type_constraints")
# How later versions inherit each key (docs/format.md, "Inheritance between versions").
MERGED_BY_NAME = ("attributes", "type_constraints", "let", "type_relations", "dims")
NOT_INHERITED = ("examples", "changes")


class ImporterError(Exception):
    """A user-facing importer problem (unknown op, missing file); the CLI prints it without a traceback."""


@dataclass(frozen=True, slots=True)
class SourceOp:
    """One op as a source (onnx, onnxruntime) defines it: every version complete, oldest first."""

    name: str
    domain: str
    category: str
    summary: str
    doc: str
    # full versions: since, attributes, inputs, outputs, type_constraints (and `deprecated`, not written)
    versions: list[dict[str, Any]]
    status: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------------------------- YAML I/O


class _OpFileDumper(yaml.SafeDumper):
    """SafeDumper that writes multi-line strings as literal blocks."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_OpFileDumper.add_representer(str, _represent_str)


def load_op_file(path: Path) -> dict[str, Any]:
    """Load one op file; a file that is not a mapping is an ImporterError."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SafeLoader)  # CSafeLoader when available
    if not isinstance(data, dict):
        raise ImporterError(f"{path}: expected a mapping at the top level, found {type(data).__name__}")
    return data


def dump_op(doc: Mapping[str, Any]) -> str:
    """The text of an op file: stable key order, block style, literal multi-line strings."""
    return yaml.dump(ordered_op(doc), Dumper=_OpFileDumper, sort_keys=False, default_flow_style=False,
                     width=100, allow_unicode=True)


def write_if_changed(path: Path, text: str) -> bool:
    """Write `text` to `path` unless it already holds exactly that; True when written."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def _ordered(mapping: Mapping[str, Any], order: Iterable[str]) -> dict[str, Any]:
    keys = [k for k in order if k in mapping] + [k for k in mapping if k not in order]
    return {k: mapping[k] for k in keys}


def _ordered_params(params: Any) -> Any:
    if not isinstance(params, list):
        return params
    return [_ordered(p, PARAM_ORDER) if isinstance(p, dict) else p for p in params]


def _ordered_version(version: Mapping[str, Any]) -> dict[str, Any]:
    out = _ordered(version, VERSION_ORDER)
    if isinstance(out.get("attributes"), dict):
        out["attributes"] = {name: _ordered(spec, ATTRIBUTE_ORDER) if isinstance(spec, dict) else spec
                             for name, spec in out["attributes"].items()}
    for key in ("inputs", "outputs"):
        if key in out:
            out[key] = _ordered_params(out[key])
    return out


def ordered_op(doc: Mapping[str, Any]) -> dict[str, Any]:
    out = _ordered(doc, TOP_LEVEL_ORDER)
    if isinstance(out.get("versions"), list):
        out["versions"] = [_ordered_version(v) if isinstance(v, dict) else v for v in out["versions"]]
    return out


# ----------------------------------------------------------------------------------------------- changes text


def _short_type(type_str: str) -> str:
    return type_str[len("tensor("):-1] if type_str.startswith("tensor(") and type_str.endswith(")") else type_str


def _without_doc(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k != "doc"}


def _added_removed(kind: str, before: Iterable[str], after: Iterable[str]) -> list[str]:
    old, new = list(before), list(after)
    added, removed = [n for n in new if n not in old], [n for n in old if n not in new]
    return ([f"adds {kind} {', '.join(added)}"] if added else []) + (
        [f"removes {kind} {', '.join(removed)}"] if removed else [])


def _attribute_change(name: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    texts = [f"attribute {name} {key} {before.get(key, 'none')} -> {after.get(key, 'none')}"
             for key in ("type", "default") if before.get(key) != after.get(key)]
    if before.get("required", False) != after.get("required", False):
        texts.append(f"attribute {name} now {'required' if after.get('required') else 'optional'}")
    return texts


def _param_change(kind: str, name: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    texts = []
    if before["type"] != after["type"]:
        texts.append(f"{kind} {name} type {before['type']} -> {after['type']}")
    for flag in ("optional", "variadic"):
        if before.get(flag, False) != after.get(flag, False):
            texts.append(f"{kind} {name} {'now' if after.get(flag) else 'no longer'} {flag}")
    for key, default in (("min_arity", 1), ("homogeneous", True)):
        if before.get(key, default) != after.get(key, default):
            texts.append(f"{kind} {name} {key} {before.get(key, default)} -> {after.get(key, default)}")
    return texts


def _params_changes(kind: str, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    old, new = {p["name"]: p for p in before}, {p["name"]: p for p in after}
    texts = _added_removed(kind, old, new)
    for name in (n for n in new if n in old):
        texts += _param_change(kind, name, old[name], new[name])
    if not texts and list(old) != list(new):
        texts.append(f"reorders {kind}s")
    return texts


def _type_constraint_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    texts = _added_removed("type", before, after)
    for name in (n for n in after if n in before):
        old, new = before[name]["types"], after[name]["types"]
        added = [_short_type(t) for t in new if t not in old]
        dropped = [_short_type(t) for t in old if t not in new]
        texts += [f"type {name} widened with {', '.join(added)}"] if added else []
        texts += [f"type {name} narrowed by {', '.join(dropped)}"] if dropped else []
    return texts


def _docs_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    def docs(version: Mapping[str, Any]) -> list[Any]:
        specs = [*version.get("attributes", {}).values(), *version.get("inputs", []), *version.get("outputs", []),
                 *version.get("type_constraints", {}).values()]
        return [spec.get("doc") for spec in specs]

    return docs(before) != docs(after)


def describe_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """A one-line account of what changed between two full versions (docs only noted, not itemised)."""
    old_attrs, new_attrs = before.get("attributes", {}), after.get("attributes", {})
    texts = ["deprecated"] if after.get("deprecated") and not before.get("deprecated") else []
    texts += _added_removed("attribute", old_attrs, new_attrs)
    for name in (n for n in new_attrs if n in old_attrs):
        texts += _attribute_change(name, old_attrs[name], new_attrs[name])
    for kind in ("input", "output"):
        texts += _params_changes(kind, before.get(f"{kind}s", []), after.get(f"{kind}s", []))
    texts += _type_constraint_changes(before.get("type_constraints", {}), after.get("type_constraints", {}))
    if not texts:
        return "documentation only" if _docs_changed(before, after) else "no signature change"
    return "; ".join(texts)


# ----------------------------------------------------------------------------------------------- inheritance


def resolve_versions(versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply version inheritance: every returned version is complete (see docs/format.md)."""
    resolved: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for version in versions:
        current = {k: v for k, v in current.items() if k not in NOT_INHERITED}
        for key, value in version.items():
            if key in MERGED_BY_NAME and isinstance(value, dict):
                merged = dict(current.get(key) or {})
                for name, spec in value.items():
                    if spec is None:
                        merged.pop(name, None)
                    else:
                        merged[name] = spec
                current[key] = merged
            else:
                current[key] = value
        resolved.append(copy.deepcopy(current))
    return resolved


def _changed_by_name(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The by-name delta from `before` to `after`: changed or new entries in full, removed ones as None."""
    delta: dict[str, Any] = {name: spec for name, spec in after.items() if before.get(name) != spec}
    delta.update({name: None for name in before if name not in after})
    return delta


def encode_versions(full_versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Turn complete versions into inheriting ones: each states only what changed from the one before."""
    encoded: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for full in full_versions:
        entry: dict[str, Any] = {"since": full["since"]}
        entry["changes"] = "initial" if previous is None else describe_changes(previous, full)
        prev = previous or {}
        for key in ("attributes", "type_constraints"):
            delta = _changed_by_name(prev.get(key, {}), full.get(key, {}))
            if delta:
                entry[key] = delta
        for key in ("inputs", "outputs"):
            if full.get(key, []) != prev.get(key, []):
                entry[key] = full.get(key, [])
        encoded.append(entry)
        previous = full
    return encoded


# ----------------------------------------------------------------------------------------------- merging


def _with_hand_keys(generated: dict[str, Any], existing: Any, hand_keys: Iterable[str]) -> dict[str, Any]:
    merged = dict(generated)
    if isinstance(existing, dict):
        merged.update({k: existing[k] for k in hand_keys if k in existing})
    return merged


def _has_hand_keys(spec: Any, hand_keys: Iterable[str]) -> bool:
    return isinstance(spec, dict) and any(k in spec for k in hand_keys)


def _merge_attributes(existing: Any, generated: Mapping[str, Any] | None) -> dict[str, Any]:
    old = existing if isinstance(existing, dict) else {}
    merged: dict[str, Any] = {}
    for name, spec in (generated or {}).items():
        merged[name] = None if spec is None else _with_hand_keys(spec, old.get(name), HAND_ATTRIBUTE_KEYS)
    # An attribute restated by hand (to add `allowed`, say) where the importer states nothing stays as written.
    merged.update({name: spec for name, spec in old.items()
                   if name not in merged and _has_hand_keys(spec, HAND_ATTRIBUTE_KEYS)})
    return merged


def _merge_params(existing: Any, generated: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    old = existing if isinstance(existing, list) else []
    if generated is None:
        # Restated by hand (to add shapes) where the importer states nothing: keep it as written.
        return old if any(_has_hand_keys(p, HAND_PARAM_KEYS) for p in old) else None
    old_by_name = {p.get("name"): p for p in old if isinstance(p, dict)}
    return [_with_hand_keys(p, old_by_name.get(p["name"]), HAND_PARAM_KEYS) for p in generated]


def _narrowed_or_generated(existing: Any, name: str, generated: Any) -> Any:
    """A type constraint the file narrows by hand to a proper subset of the source's types stays as written (a
    deliberate narrowing: tests/registry/test_drift.py fails unless schemas/drift_exceptions.yaml names it);
    otherwise the source's."""
    mine = existing.get(name) if isinstance(existing, dict) else None
    mine_types = mine.get("types") if isinstance(mine, dict) else mine
    source_types = generated.get("types") if isinstance(generated, dict) else generated
    if isinstance(mine_types, list) and isinstance(source_types, list) and mine_types \
            and set(mine_types) < set(source_types):
        return mine
    return generated


def _merge_version(existing: Mapping[str, Any] | None, generated: Mapping[str, Any]) -> dict[str, Any]:
    old = existing or {}
    merged: dict[str, Any] = {"since": generated["since"]}
    # A `changes` text that differs from what the importer generates was written by hand.
    merged["changes"] = old.get("changes") or generated["changes"]
    attributes = _merge_attributes(old.get("attributes"), generated.get("attributes"))
    if attributes:
        merged["attributes"] = attributes
    for key in ("inputs", "outputs"):
        params = _merge_params(old.get(key), generated.get(key))
        if params is not None:
            merged[key] = params
    if "type_constraints" in generated:
        mine = old.get("type_constraints")
        merged["type_constraints"] = {name: _narrowed_or_generated(mine, name, spec)
                                      for name, spec in generated["type_constraints"].items()}
        # a variable only the registry has (e.g. the element types of a subgraph's state) stays: the drift test
        # fails unless schemas/drift_exceptions.yaml names it
        if isinstance(mine, dict):
            merged["type_constraints"].update({k: v for k, v in mine.items() if k not in merged["type_constraints"]})
    merged.update({k: v for k, v in old.items() if k not in IMPORTED_VERSION_KEYS})
    return merged


def _merge_status(existing: Any, generated: dict[str, Any] | None) -> dict[str, Any] | None:
    if generated is None:
        return existing if isinstance(existing, dict) else None
    merged = dict(existing) if isinstance(existing, dict) else {}
    merged.update(generated)
    return merged


def merge_op(existing: Mapping[str, Any] | None, source: SourceOp) -> dict[str, Any]:
    """The op file for `source`, keeping everything of `existing` the importer does not produce."""
    old = dict(existing or {})
    doc: dict[str, Any] = {
        "name": source.name,
        "domain": source.domain,
        "category": old.get("category") or source.category,
        "summary": old.get("summary") or source.summary,
    }
    text = old["doc"] if "doc" in old else source.doc
    if text:
        doc["doc"] = text
    status = _merge_status(old.get("status"), source.status)
    if status is not None:
        doc["status"] = status
    old_versions = {v.get("since"): v for v in old.get("versions") or [] if isinstance(v, dict)}
    versions = [_merge_version(old_versions.pop(g["since"], None), g) for g in encode_versions(source.versions)]
    versions.extend(old_versions.values())  # versions only people wrote (the source lacks them)
    doc["versions"] = sorted(versions, key=lambda v: v["since"] if isinstance(v.get("since"), int) else 0)
    doc.update({k: v for k, v in old.items() if k not in doc and k != "versions"})
    return ordered_op(doc)


# ----------------------------------------------------------------------------------------------- import loop


def op_file(schemas_dir: Path, domain: str, name: str) -> Path:
    return schemas_dir / domain / f"{name}.yaml"


def existing_op_names(schemas_dir: Path, domain: str) -> list[str]:
    folder = schemas_dir / domain
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.name.startswith("_"))


def select_ops(schemas_dir: Path, domain: str, available: Iterable[str], ops: list[str] | None,
               *, create: bool) -> list[str]:
    """Which ops to import: named ones, every op of the source (`create` without names) or the existing files."""
    known = set(available)
    if ops is None:
        if create:
            return sorted(known)
        return [name for name in existing_op_names(schemas_dir, domain) if name in known]
    unknown = [name for name in ops if name not in known]
    if unknown:
        raise ImporterError(f"{domain}: no such op in the source: {', '.join(unknown)}")
    if not create:
        missing = [name for name in ops if not op_file(schemas_dir, domain, name).exists()]
        if missing:
            raise ImporterError(f"{domain}: no file yet for {', '.join(missing)} (create it with --op)")
    return list(dict.fromkeys(ops))


def import_ops(schemas_dir: Path, domain: str, names: Iterable[str],
               build: Callable[[str], SourceOp]) -> list[Path]:
    """Create or refresh the op files of `names`; returns the files written.

    A file whose content (the parsed data) would not change is left alone, so the formatting and
    comments people gave it survive a refresh that has nothing to add.
    """
    written: list[Path] = []
    for name in names:
        path = op_file(schemas_dir, domain, name)
        existing = load_op_file(path) if path.exists() else None
        merged = merge_op(existing, build(name))
        if merged != existing and write_if_changed(path, dump_op(merged)):
            written.append(path)
    return written
