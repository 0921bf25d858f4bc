"""The compiled cache's fast path: what it serves is the registry the YAML gives, a changed file is never served
stale, a table that does not decode is a miss, and a hit loads none of the checking machinery."""

from __future__ import annotations

import dataclasses
import marshal
import math
import os
import subprocess
import sys
from array import array
from pathlib import Path
from typing import Any

import pytest

from opset import cache, load, record_table
from opset.formula import Formula
from opset.frozen import FrozenMap
from opset.load import load_registry
from opset.model import Location
from opset.registry import Registry

ROOT = Path(__file__).resolve().parents[2]


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two registry values differ: exact types (1, 1.0 and True differ), every field of every record, map
    order, formula text; NaN equals NaN (the YAML's and the cache's are distinct float objects)."""
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} {a!r} vs {type(b).__name__} {b!r}"]
    if isinstance(a, Formula):
        return [] if a.text == b.text and a == b else [f"{path}: formula {a.text!r} vs {b.text!r}"]
    if dataclasses.is_dataclass(a):
        return [d for f in dataclasses.fields(a) for d in differences(getattr(a, f.name), getattr(b, f.name),
                                                                     f"{path}.{f.name}")]
    if isinstance(a, FrozenMap):
        if list(a) != list(b):
            return [f"{path}: keys {list(a)} vs {list(b)}"]
        return [d for k in a for d in differences(a[k], b[k], f"{path}[{k!r}]")]
    if isinstance(a, tuple):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items vs {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")]
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return []
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def registry_differences(fast: Registry, slow: Registry) -> list[str]:
    found = differences(tuple(fast.domains.items()), tuple(slow.domains.items()), "domains")
    if list(fast.ops) != list(slow.ops):
        return [*found, "the ops differ"]
    for key in slow.ops:
        found += differences(fast.ops[key], slow.ops[key], "::".join(key))
    return found


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    return tmp_path / "cache"


def _hits_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_yaml(*_: object) -> None:
        raise AssertionError("the YAML was read: the cache missed")

    monkeypatch.setattr(load, "read_and_check", no_yaml)


def test_the_cached_registry_is_the_one_built_from_yaml(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    slow = load_registry(use_cache=False)
    load_registry()  # writes the cache
    _hits_only(monkeypatch)
    fast = load_registry()
    assert sum(len(op.versions) for op in fast.ops.values()) == len(slow) > 900
    assert registry_differences(fast, slow) == []


def test_the_comparison_sees_one_changed_field(registry: Registry) -> None:
    # the check above can fail: a location one line off, deep inside one version, is found and named
    op = registry.ops[("ai.onnx", "AveragePool")]
    version = op.versions[1]
    attribute = next(iter(version.attributes.values()))
    assert attribute.location is not None
    moved = dataclasses.replace(attribute, location=Location(attribute.location.file, attribute.location.line + 1))
    changed = dataclasses.replace(version, attributes=FrozenMap({**version.attributes, attribute.name: moved}))
    other = dataclasses.replace(op, versions=(op.versions[0], changed, *op.versions[2:]))
    assert differences(other, op) == [f".versions[1].attributes[{attribute.name!r}].location.line: "
                                      f"{attribute.location.line + 1!r} vs {attribute.location.line!r}"]
    assert differences(FrozenMap({"a": 1}), FrozenMap({"a": True})) != []
    assert differences(Formula.checked("x+1"), Formula.checked("x + 1")) != []


def _copy(tmp_path: Path, ops: list[str]) -> Path:
    root = tmp_path / "schemas" / "ai.onnx"
    root.mkdir(parents=True)
    for name in ["_domain", *ops]:
        (root / f"{name}.yaml").write_bytes((ROOT / "schemas" / "ai.onnx" / f"{name}.yaml").read_bytes())
    return root.parent


def test_a_same_size_change_with_the_old_mtime_is_seen(tmp_path: Path, cache_folder: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "RACY_SECONDS", -1.0)  # trust stats at once, so the stat index is used
    root = _copy(tmp_path, ["Relu", "Abs"])
    assert load_registry(root).ops[("ai.onnx", "Relu")].summary.startswith("Relu takes")
    assert len(list((cache_folder / "stat-index").iterdir())) == 1
    relu = root / "ai.onnx" / "Relu.yaml"
    before = os.stat(relu)
    text = relu.read_text(encoding="utf-8")
    assert "\nsummary: Relu takes" in text
    relu.write_text(text.replace("\nsummary: Relu takes", "\nsummary: Xelu takes", 1), encoding="utf-8")
    os.utime(relu, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime: only ctime tells
    assert os.stat(relu).st_size == before.st_size and os.stat(relu).st_mtime_ns == before.st_mtime_ns
    assert load_registry(root).ops[("ai.onnx", "Relu")].summary.startswith("Xelu takes")


def test_files_changed_within_the_racy_window_are_hashed_not_indexed(tmp_path: Path, cache_folder: Path) -> None:
    root = _copy(tmp_path, ["Relu"])  # written just now
    load_registry(root)
    assert not list((cache_folder / "stat-index").glob("*")), "fresh files must not be trusted to their stats"
    assert len(list(cache_folder.glob("registry-*.marshal"))) == 1


@pytest.mark.parametrize("damage", ["torn column", "part from the future", "unknown kind", "code as a leaf",
                                    "ragged record", "unpacked column"])
def test_tables_that_do_not_decode_are_a_miss(tmp_path: Path, cache_folder: Path, monkeypatch: pytest.MonkeyPatch,
                                              damage: str) -> None:
    root = _copy(tmp_path, ["Relu"])
    expected = load_registry(root, use_cache=False)
    load_registry(root)
    (cache_file,) = cache_folder.glob("registry-*.marshal")
    blob = marshal.loads(cache_file.read_bytes())
    batches = blob["tables"]["batches"]
    records = [b for b in batches if b[0] >= record_table.RECORD_KINDS]
    first = records[0][1]
    if damage == "torn column":
        first[0] = first[0][:-1]
    elif damage == "part from the future":
        first[0] = array("I", [10**6]).tobytes() + first[0][4:]
    elif damage == "unknown kind":
        records[0][0] = 999
    elif damage == "code as a leaf":
        next(b for b in batches if b[0] == record_table.LEAF)[1].append((lambda: None).__code__)
    elif damage == "ragged record":
        first[0] += first[0][:4]
    else:
        first[0] = list(array("I", first[0]))
    cache_file.write_bytes(marshal.dumps(blob))
    with pytest.raises(record_table.TableError):
        record_table.decode_registry(blob["tables"])
    assert registry_differences(load_registry(root), expected) == []
    assert record_table.decode_registry(marshal.loads(cache_file.read_bytes())["tables"]), "rewritten"


def test_a_hit_loads_no_yaml_schema_checker_or_numpy(tmp_path: Path) -> None:
    env = {**os.environ, "OPSET_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("OPSET_NO_CACHE", None)
    code = ("import sys; from opset.load import load_registry; r = load_registry(); "
            "n = sum(len(op.versions) for op in r.ops.values()); "
            "print(n, sorted(m for m in ('yaml', 'jsonschema', 'numpy', 'opset.build', 'opset.checks', "
            "'opset.formula.parser') if m in sys.modules))")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=env, cwd=ROOT)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    count, modules = out.stdout.split(" ", 1)
    assert int(count) > 900 and modules.strip() == "[]"
