"""Load the whole registry: meta-schema check, build, semantic checks; every problem in one run.

    registry = load_registry()          # schemas/ of this checkout (or the wheel's copy), through the compiled cache

A cache hit skips YAML parsing and every check (the key is the content of every file plus the
loader's own version), so a cold process loads in a few milliseconds. A corrupt or stale cache is
rebuilt, never trusted.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from opset import cache
from opset.build import build_op
from opset.errors import Problem, RegistryError
from opset.frozen import FrozenMap
from opset.lines import locating_paths
from opset.model import Domain, MapsTo, OpSchema, OpVersion
from opset.registry import OpTable, Registry
from opset.registry_home import schemas_dir

__all__ = ["load_registry", "read_and_check", "schemas_dir"]

if TYPE_CHECKING:
    from opset.checks import ProblemSink



def load_registry(root: Path | str | None = None, *, use_cache: bool = True) -> Registry:
    """The registry under `root` (default: `schemas_dir()`: `$OPSET_SCHEMAS`, else this checkout's `schemas/` or
    the installed wheel's copy). Raises RegistryError."""
    root = Path(root) if root is not None else schemas_dir()
    files = _registry_files(root)
    key = cache.content_key(root, files) if use_cache else ""
    if use_cache:
        plain = cache.read(key)
        if plain is not None:
            return _build_registry(plain)
    plain = read_and_check(root, files)
    if use_cache:
        cache.write(key, plain)
    return _build_registry(plain)


def _registry_files(root: Path) -> list[Path]:
    if not root.is_dir():
        raise RegistryError([Problem(str(root), None, None, "registry folder not found")])
    return sorted(p for p in root.glob("*/*.yaml") if p.parent.name != "meta")


def read_and_check(root: Path, files: list[Path]) -> dict[str, Any]:
    """Every file read, meta-schema-checked, built and semantically checked; RegistryError on any problem."""
    from opset.checks import ProblemSink, check_op
    from opset.meta import validate_file
    from opset.yaml_source import YamlReadError, read_yaml_text

    sink = ProblemSink()
    plain: dict[str, Any] = {"domains": {}, "ops": {}}
    built: dict[tuple[str, str], OpSchema] = {}
    for path in files:
        rel = _display(path, root)
        kind = "domain" if path.name == "_domain.yaml" else "op"
        try:
            data, lines = read_yaml_text(path.read_text(encoding="utf-8"))
        except YamlReadError as e:
            sink.problems.append(Problem(rel, e.line, None, e.message))
            continue
        except (OSError, UnicodeDecodeError) as e:
            sink.problems.append(Problem(rel, None, None, f"cannot read: {e}"))
            continue
        problems = validate_file(kind, data, lines, rel)
        if problems:
            sink.problems.extend(problems)
            continue
        if kind == "domain":
            if data["domain"] != path.parent.name:
                sink.problems.append(Problem(rel, lines.get(("domain",)), None,
                                             f"domain '{data['domain']}' does not match its folder"))
            plain["domains"][data["domain"]] = {"data": data, "file": rel}
            continue
        op = build_op(data, lines, rel, sink.problems)
        check_op(op, sink, folder_domain=path.parent.name, file_stem=path.stem)
        if (op.domain, op.name) in built:
            sink.add(op.versions[0].location, op.name, f"op defined twice in domain {op.domain}")
        built[(op.domain, op.name)] = op
        plain["ops"][rel] = {"data": data, "lines": _encode_lines(locating_paths(lines))}
    _check_across_files(plain, built, sink)
    if sink.problems:
        raise RegistryError(sink.problems)
    return plain


def _check_across_files(plain: dict[str, Any], built: dict[tuple[str, str], OpSchema], sink: Any) -> None:
    domains = plain["domains"]
    for (domain, _), op in list(built.items()):
        if domain not in domains:
            if Path(op.file).parent.name == domain:  # a folder mismatch is reported by the op's own checks
                sink.add(op.versions[0].location, op.name, f"domain '{domain}' has no _domain.yaml")
            del built[(domain, op.name)]
    for entry in domains.values():
        ext = entry["data"].get("extends")
        if ext and ext["domain"] not in domains:
            sink.problems.append(Problem(entry["file"], None, None, f"extends unknown domain '{ext['domain']}'"))
            return
    registry = _build_registry({"domains": domains, "ops": {}}, built)
    op_ids: dict[int, str] = {}
    for op in built.values():
        for v in op.versions:
            if v.tengine is not None:
                other = op_ids.setdefault(v.tengine.op_id, op.name)
                if other != op.name:
                    sink.add(v.location, v.signature, f"tengine op_id {v.tengine.op_id} is also {other}'s")
            if v.maps_to is not None:
                _check_mapping(v, v.maps_to, registry, domains, sink)


def _check_mapping(v: OpVersion, m: MapsTo, registry: Registry, domains: Mapping[str, Any],
                   sink: ProblemSink) -> None:
    """A mapping's target (and its follow-ups' and alternatives') resolves, and its attributes are the target's."""
    targets = [(m.op, m.attributes)] + [(t.op, t.attributes) for t in m.then]
    for op, attributes in targets:
        target = registry.try_resolve(m.domain, op, m.opset) if m.domain in domains else None
        if target is None:
            sink.add(v.location, v.signature, f"maps_to target {m.domain}::{op} at opset {m.opset} "
                                              "is not in the registry")
            continue
        for attr in attributes:
            if attr not in target.attributes:
                sink.add(v.location, v.signature, f"maps_to attribute '{attr}' is not an attribute of "
                                                  f"{target.signature}")
    known = {p.name for p in v.inputs} | set(m.const_inputs) | {""}
    for name in m.inputs or ():
        if name not in known:
            sink.add(v.location, v.signature, f"maps_to input '{name}' is neither an input nor a const_inputs name")
    for name in m.reshape_inputs:
        if name not in {p.name for p in v.inputs}:
            sink.add(v.location, v.signature, f"maps_to reshape_inputs '{name}' is not an input")
    for alternative in m.alternatives:
        _check_mapping(v, alternative, registry, domains, sink)


def _build_registry(plain: dict[str, Any], built: dict[tuple[str, str], OpSchema] | None = None) -> Registry:
    domains = {name: _domain(entry["data"], entry["file"]) for name, entry in plain["domains"].items()}
    if built is not None:
        return Registry(domains=domains, ops=OpTable.of(built))
    builders: dict[tuple[str, str], Callable[[], OpSchema]] = {}
    counts: dict[tuple[str, str], int] = {}
    for rel, entry in plain["ops"].items():
        key = (entry["data"]["domain"], entry["data"]["name"])
        builders[key] = functools.partial(_build_cached_op, entry, rel)
        counts[key] = len(entry["data"]["versions"])
    return Registry(domains=domains, ops=OpTable(builders, counts))


def _build_cached_op(entry: dict[str, Any], rel: str) -> OpSchema:
    return build_op(entry["data"], _decode_lines(entry["lines"]), rel)


def _domain(data: dict[str, Any], file: str) -> Domain:
    ext = data.get("extends")
    return Domain(name=data["domain"], description=data["description"], seed=data.get("seed"),
                  extends=(ext["domain"], ext["opset"]) if ext else None, max_opset=data["max_opset"],
                  releases=FrozenMap({int(k): v for k, v in (data.get("releases") or {}).items()}),
                  node_domain=data.get("node_domain", data["domain"]),
                  aliases=tuple(data.get("aliases") or ()), file=file)


def _encode_lines(lines: dict[tuple[str | int, ...], int]) -> list[list[Any]]:
    return [[list(path), line] for path, line in lines.items()]


def _decode_lines(encoded: list[list[Any]]) -> dict[tuple[str | int, ...], int]:
    return {tuple(path): line for path, line in encoded}


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
