"""Drift: where the registry's op files (after inheritance) disagree with the source schemas.

The source side is read straight from the schema objects here, not through the importer's conversion,
so that a conversion bug shows up as drift. Expected differences are listed, with a reason each, in
`schemas/drift_exceptions.yaml`; an entry that matches no drift is reported as stale.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.defs
import yaml
from onnx import helper

from opset.frozen import thaw
from opset.importers.yaml_writer import ImporterError, existing_op_names, load_op_file, resolve_versions

EXCEPTIONS_FILE = "drift_exceptions.yaml"
Facts = dict[str, Any]  # attributes: {name: {type, default, required}}, inputs/outputs: [...], type_constraints


@dataclass(frozen=True, slots=True)
class Drift:
    domain: str
    op: str
    version: int | None
    field: str  # dotted path: versions, attributes.ceil_mode.default, inputs.0.type, type_constraints.T ...
    text: str

    def line(self) -> str:
        at = f"@{self.version}" if self.version is not None else ""
        return f"{self.domain}::{self.op}{at}: {self.text}"


# ----------------------------------------------------------------------------------------------- source facts


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _proto_default(proto: onnx.AttributeProto) -> Any:
    return None if proto.type == onnx.AttributeProto.UNDEFINED else _plain(helper.get_attribute_value(proto))


def _ort_default(raw: bytes) -> Any:
    proto = onnx.AttributeProto()
    proto.ParseFromString(raw)
    return _proto_default(proto)


def _schema_facts(schema: Any, *, ort: bool) -> Facts:
    def param(p: Any) -> dict[str, Any]:
        variadic = p.option.name == "Variadic"
        return {"name": p.name, "type": p.typeStr if ort else p.type_str, "optional": p.option.name == "Optional",
                "variadic": variadic,
                # onnxruntime does not expose min_arity: None leaves it unchecked
                "min_arity": (None if ort else int(p.min_arity)) if variadic else 1,
                "homogeneous": bool(p.isHomogeneous if ort else p.is_homogeneous) if variadic else True}

    return {
        "attributes": {name: {"type": a.type.name.lower(), "required": bool(a.required),
                              "default": _ort_default(a._default_value) if ort else _proto_default(a.default_value)}
                       for name, a in schema.attributes.items()},
        "inputs": [param(p) for p in schema.inputs],
        "outputs": [param(p) for p in schema.outputs],
        "type_constraints": {tc.type_param_str: sorted(tc.allowed_type_strs) for tc in schema.type_constraints},
    }


def onnx_source_facts(domain: str = "ai.onnx") -> dict[str, dict[int, Facts]]:
    """Every op of one onnx domain (registry spelling; experimental versions included): name -> since -> facts."""
    from opset.importers.onnx_defs import ONNX_SOURCE_DOMAINS

    source = ONNX_SOURCE_DOMAINS[domain]
    facts: dict[str, dict[int, Facts]] = {}
    for schema in onnx.defs.get_all_schemas_with_history():
        if schema.domain == source:
            facts.setdefault(schema.name, {})[int(schema.since_version)] = _schema_facts(schema, ort=False)
    return facts


def ort_source_facts(domain: str = "com.microsoft") -> dict[str, dict[int, Facts]]:
    """Every op of one registry domain the installed onnxruntime defines (com.microsoft, com.microsoft.nchwc,
    com.ms.internal.nhwc, ai.onnx.ort: `opset.importers.ort_contrib.ort_history`): name -> since -> facts."""
    from opset.importers.ort_contrib import ort_history

    return {name: {int(s.since_version): _schema_facts(s, ort=True) for s in schemas}
            for name, schemas in ort_history(domain).items()}


# ----------------------------------------------------------------------------------------------- registry facts


def _param_facts(p: Mapping[str, Any]) -> dict[str, Any]:
    variadic = bool(p.get("variadic", False))
    return {"name": p.get("name"), "type": p.get("type"), "optional": bool(p.get("optional", False)),
            "variadic": variadic, "min_arity": p.get("min_arity", 1) if variadic else 1,
            "homogeneous": p.get("homogeneous", True) if variadic else True}


def registry_facts(version: Mapping[str, Any]) -> Facts:
    """The comparable facts of one resolved registry version."""
    tcs = version.get("type_constraints") or {}
    return {
        "attributes": {name: {"type": s.get("type"), "required": bool(s.get("required", False)),
                              "default": s.get("default")}
                       for name, s in (version.get("attributes") or {}).items() if isinstance(s, dict)},
        "inputs": [_param_facts(p) for p in version.get("inputs") or []],
        "outputs": [_param_facts(p) for p in version.get("outputs") or []],
        "type_constraints": {name: sorted(s["types"] if isinstance(s, dict) else s) for name, s in tcs.items()},
    }


def loaded_version_facts(version: Any) -> Facts:
    """The comparable facts of an `opset.model.OpVersion` from the loader (to cross-check `resolve_versions`)."""
    def param(p: Any) -> dict[str, Any]:
        return {"name": p.name, "type": p.type, "optional": p.optional, "variadic": p.variadic,
                "min_arity": p.min_arity if p.variadic else 1, "homogeneous": p.homogeneous if p.variadic else True}

    return {
        "attributes": {name: {"type": a.type, "required": a.required, "default": thaw(a.default)}
                       for name, a in version.attributes.items()},
        "inputs": [param(p) for p in version.inputs],
        "outputs": [param(p) for p in version.outputs],
        "type_constraints": {name: sorted(tc.types) for name, tc in version.type_constraints.items()},
    }


# ----------------------------------------------------------------------------------------------- comparison


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def same_value(a: Any, b: Any) -> bool:
    """Equality where floats compare as float32 (the precision onnx stores attribute floats in)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return bool(np.float32(a) == np.float32(b)) if float in (type(a), type(b)) else a == b
    return type(a) is type(b) and a == b


def compare_version(source: Facts, mine: Facts, source_name: str, file: str) -> list[tuple[str, str]]:
    """(field, text) for every difference between the source's facts and the registry's."""
    found: list[tuple[str, str]] = []
    src_attrs, my_attrs = source["attributes"], mine["attributes"]
    for name in sorted(set(src_attrs) | set(my_attrs)):
        if name not in my_attrs:
            found.append((f"attributes.{name}", f"attribute {name} in {source_name}, missing in {file}"))
        elif name not in src_attrs:
            found.append((f"attributes.{name}", f"attribute {name} in {file}, not in {source_name}"))
        else:
            for key in ("type", "default", "required"):
                theirs, ours = src_attrs[name][key], my_attrs[name][key]
                if not same_value(theirs, ours):
                    found.append((f"attributes.{name}.{key}", f"attribute {name} {key} {_show(theirs)} in "
                                  f"{source_name}, {_show(ours)} in {file}"))
    for kind in ("inputs", "outputs"):
        found.extend(_compare_params(kind, source[kind], mine[kind], source_name, file))
    src_tcs, my_tcs = source["type_constraints"], mine["type_constraints"]
    for name in sorted(set(src_tcs) | set(my_tcs)):
        if src_tcs.get(name) != my_tcs.get(name):
            found.append((f"type_constraints.{name}", f"type constraint {name} is {_show(src_tcs.get(name))} in "
                          f"{source_name}, {_show(my_tcs.get(name))} in {file}"))
    return found


def _compare_params(kind: str, theirs: list[dict[str, Any]], ours: list[dict[str, Any]], source_name: str,
                    file: str) -> list[tuple[str, str]]:
    singular = kind[:-1]
    if len(theirs) != len(ours):
        return [(f"{kind}.count", f"{len(theirs)} {kind} in {source_name}, {len(ours)} in {file}")]
    found = []
    for index, (src, mine) in enumerate(zip(theirs, ours, strict=True)):
        for key in ("name", "type", "optional", "variadic", "min_arity", "homogeneous"):
            if src[key] is not None and src[key] != mine[key]:
                found.append((f"{kind}.{index}.{key}", f"{singular} {index} ({src['name']}) {key} "
                              f"{_show(src[key])} in {source_name}, {_show(mine[key])} in {file}"))
    return found


def compare_op(domain: str, name: str, source: Mapping[int, Facts], doc: Mapping[str, Any], source_name: str,
               file: str) -> list[Drift]:
    versions = [v for v in doc.get("versions") or [] if isinstance(v, dict)]
    resolved = {v.get("since"): r for v, r in zip(versions, resolve_versions(versions), strict=True)}
    drifts = [Drift(domain, name, since, "versions", f"version {since} in {source_name}, missing in {file}")
              for since in sorted(set(source) - set(resolved))]
    drifts += [Drift(domain, name, since, "versions", f"version {since} in {file}, not in {source_name}")
               for since in sorted(set(resolved) - set(source), key=str)]
    for since in sorted(set(source) & set(resolved)):
        drifts += [Drift(domain, name, since, path, text)
                   for path, text in compare_version(source[since], registry_facts(resolved[since]),
                                                     source_name, file)]
    return drifts


# ----------------------------------------------------------------------------------------------- exceptions


@dataclass(frozen=True, slots=True)
class DriftException:
    op: str
    domain: str
    version: int | None
    field: str
    reason: str

    def matches(self, drift: Drift) -> bool:
        return (self.domain == drift.domain and self.op == drift.op
                and (self.version is None or self.version == drift.version)
                and (drift.field == self.field or drift.field.startswith(self.field + ".")))


def load_exceptions(path: Path) -> tuple[list[DriftException], list[str]]:
    """The listed exceptions and a line for every malformed entry."""
    if not path.exists():
        return [], []
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(entries, list):
        return [], [f"{path}: expected a list of {{op, domain, version, field, reason}} entries"]
    found, problems = [], []
    for index, entry in enumerate(entries):
        keys = ("op", "domain", "field", "reason")
        if not isinstance(entry, dict) or any(not isinstance(entry.get(k), str) or not entry[k] for k in keys):
            problems.append(f"{path}: entry {index} needs non-empty op, domain, field and reason")
        elif not isinstance(entry.get("version"), int | None) or set(entry) - {*keys, "version"}:
            problems.append(f"{path}: entry {index} has a bad version or unknown keys")
        else:
            found.append(DriftException(entry["op"], entry["domain"], entry.get("version"), entry["field"],
                                        entry["reason"]))
    return found, problems


def drift_report(registry_dir: Path, domain: str, source_name: str,
                 source_facts: Callable[[], dict[str, dict[int, Facts]]]) -> list[str]:
    """Unexplained drift of one domain's op files, then stale or malformed exception entries."""
    source = source_facts()
    drifts: list[Drift] = []
    for name in existing_op_names(registry_dir, domain):
        path = registry_dir / domain / f"{name}.yaml"
        file = f"{registry_dir.name}/{domain}/{path.name}"
        try:
            doc = load_op_file(path)
        except (ImporterError, yaml.YAMLError) as error:
            drifts.append(Drift(domain, name, None, "file", f"cannot read {file}: {error}"))
            continue
        status = doc.get("status")
        if name not in source:
            if not (isinstance(status, dict) and status.get("state") == "removed"):
                drifts.append(Drift(domain, name, None, "op", f"{file} has an op {source_name} does not know"))
            continue
        drifts.extend(compare_op(domain, name, source[name], doc, source_name, file))
    exceptions, problems = load_exceptions(registry_dir / EXCEPTIONS_FILE)
    mine = [e for e in exceptions if e.domain == domain]
    lines = [d.line() for d in drifts if not any(e.matches(d) for e in mine)]
    lines += [f"{registry_dir.name}/{EXCEPTIONS_FILE}: stale exception {e.domain}::{e.op}"
              f"{'' if e.version is None else f'@{e.version}'} {e.field} matches no drift"
              for e in mine if not any(e.matches(d) for d in drifts)]
    return lines + problems


def drift_onnx(registry_dir: Path) -> list[str]:
    """Unexplained differences between the op files of every onnx domain (`registry_dir/ai.onnx/*.yaml`,
    `ai.onnx.ml` ...) and the installed onnx."""
    from opset.importers.onnx_defs import ONNX_SOURCE_DOMAINS

    return [line for domain in ONNX_SOURCE_DOMAINS if (registry_dir / domain).is_dir()
            for line in drift_report(registry_dir, domain, "onnx", functools.partial(onnx_source_facts, domain))]


def drift_ort(registry_dir: Path) -> list[str]:
    """Unexplained differences between the registry's onnxruntime domains (`com.microsoft`,
    `com.microsoft.nchwc`) and the installed onnxruntime."""
    from opset.importers.ort_contrib import ORT_SOURCE_DOMAINS

    return [line for domain in ORT_SOURCE_DOMAINS
            for line in drift_report(registry_dir, domain, "onnxruntime", functools.partial(ort_source_facts, domain))]
