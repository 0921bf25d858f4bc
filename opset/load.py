"""Load the whole registry: meta-schema check, build, semantic checks; every problem in one run.

    registry = load_registry()          # schemas/ of this checkout (or the wheel's copy), through the compiled cache

A cache hit skips YAML parsing and every check: the cache holds the built records as plain tables
(`opset.record_table`), keyed by the content of every file plus the loader's own sources, found through a stat
index so a hit reads no registry file (`opset.cache`); every op is decoded at once. A corrupt or stale cache is
rebuilt, never trusted.
"""

from __future__ import annotations

import _thread  # not threading: importing it would cost every process's first load about a millisecond
import gc
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from opset import cache
from opset.errors import Problem, RegistryError
from opset.frozen import FrozenMap
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
    use_cache = use_cache and cache.cache_enabled()
    if not use_cache:
        return read_and_check(root, [Path(p) for p in files])
    from opset import record_table

    key, fingerprint = cache.key_for(root, files)
    with gc_paused():
        tables = cache.read(key)
        try:
            registry = record_table.decode_registry(tables) if tables is not None else None
        except record_table.TableError:  # a damaged table is a miss: rebuilt below
            registry = None
    if registry is None:
        registry = read_and_check(root, [Path(p) for p in files])
        cache.write(key, record_table.encode_registry(registry))
    if fingerprint is not None:
        cache.remember(fingerprint, key)
    return registry


_gc_lock = _thread.allocate_lock()
_gc_users = 0
_gc_was_enabled = False


def gc_paused() -> _GcPause:
    """Python's cyclic garbage collector paused while the registry loads or a validation runs (it lives here, not in
    a module of its own, because a new module would cost every cold process's load its import).

    Both allocate tens of thousands of containers and make no garbage cycles: loading decodes the registry's tables,
    a validation makes each node's record, signature and output facts. Every 700 allocations would start a collection
    of the young generation, every tenth of those a deeper one, none finding anything: loading was 10x slower with
    them, the 10,000-node chain's validation about a third slower. The pause turns the collector off for the work and
    back on after it, exactly as it found it: reference counting frees everything as usual, and any cycle left is
    collected at the next collection after it. Nested and concurrent uses (threads) share one pause: the first to
    enter records whether the collector was on, the last to leave restores that.
    """
    return _PAUSE


class _GcPause:
    """The context manager `gc_paused` gives (a class, not a generator: validating a small model again takes
    some 15 microseconds, and a generator-based one costs a tenth of that)."""

    __slots__ = ()

    def __enter__(self) -> None:
        global _gc_users, _gc_was_enabled
        with _gc_lock:
            if _gc_users == 0:
                _gc_was_enabled = gc.isenabled()
                gc.disable()
            _gc_users += 1

    def __exit__(self, *exc: object) -> None:
        global _gc_users
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0 and _gc_was_enabled:
                gc.enable()


_PAUSE = _GcPause()


def _registry_files(root: Path) -> list[str]:
    """The registry's YAML files, in path order (`os.scandir`: a cache hit stats them and reads none)."""
    if not root.is_dir():
        raise RegistryError([Problem(str(root), None, None, "registry folder not found")])
    found: list[tuple[str, str, str]] = []
    with os.scandir(root) as folders:
        for folder in folders:
            if folder.name == "meta" or not folder.is_dir():
                continue
            with os.scandir(folder.path) as entries:
                found += [(folder.name, e.name, e.path) for e in entries if e.name.endswith(".yaml") and e.is_file()]
    return [path for _, _, path in sorted(found)]


def read_and_check(root: Path, files: list[Path]) -> Registry:
    """Every file read, meta-schema-checked, built and semantically checked: the registry, or RegistryError listing
    every problem."""
    from opset.build import build_op
    from opset.checks import ProblemSink, check_op
    from opset.meta import validate_file
    from opset.yaml_source import YamlReadError, read_yaml_text

    sink = ProblemSink()
    domains: dict[str, dict[str, Any]] = {}
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
            domains[data["domain"]] = {"data": data, "file": rel}
            continue
        op = build_op(data, lines, rel, sink.problems)
        check_op(op, sink, folder_domain=path.parent.name, file_stem=path.stem)
        if (op.domain, op.name) in built:
            sink.add(op.versions[0].location, op.name, f"op defined twice in domain {op.domain}")
        built[(op.domain, op.name)] = op
    registry = _check_across_files(domains, built, sink)
    if sink.problems:
        raise RegistryError(sink.problems)
    return registry


def _check_across_files(domains: dict[str, dict[str, Any]], built: dict[tuple[str, str], OpSchema],
                        sink: Any) -> Registry:
    """Checks between files (domains, tengine op ids, mappings); the registry of the ops whose domain is known."""
    for (domain, _), op in list(built.items()):
        if domain not in domains:
            if Path(op.file).parent.name == domain:  # a folder mismatch is reported by the op's own checks
                sink.add(op.versions[0].location, op.name, f"domain '{domain}' has no _domain.yaml")
            del built[(domain, op.name)]
    registry = Registry(domains={name: _domain(entry["data"], entry["file"]) for name, entry in domains.items()},
                        ops=OpTable(built))
    for entry in domains.values():
        ext = entry["data"].get("extends")
        if ext and ext["domain"] not in domains:
            sink.problems.append(Problem(entry["file"], None, None, f"extends unknown domain '{ext['domain']}'"))
            return registry  # resolution through that domain cannot work: mappings are not checked
    op_ids: dict[int, str] = {}
    for op in built.values():
        for v in op.versions:
            if v.tengine is not None:
                other = op_ids.setdefault(v.tengine.op_id, op.name)
                if other != op.name:
                    sink.add(v.location, v.signature, f"tengine op_id {v.tengine.op_id} is also {other}'s")
            if v.maps_to is not None:
                _check_mapping(v, v.maps_to, registry, domains, sink)
    return registry


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


def _domain(data: dict[str, Any], file: str) -> Domain:
    ext = data.get("extends")
    return Domain(name=data["domain"], description=data["description"], seed=data.get("seed"),
                  extends=(ext["domain"], ext["opset"]) if ext else None, max_opset=data["max_opset"],
                  releases=FrozenMap({int(k): v for k, v in (data.get("releases") or {}).items()}),
                  node_domain=data.get("node_domain", data["domain"]),
                  aliases=tuple(data.get("aliases") or ()), file=file)


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
