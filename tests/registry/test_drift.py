"""Drift between the registry and onnx / onnxruntime: none unexplained, and the check can fail."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from opset.importers.drift import drift_onnx, drift_ort, loaded_version_facts, registry_facts
from opset.importers.yaml_writer import dump_op, load_op_file, resolve_versions
from opset.model import op_label

REPO_SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
POOL_FILE = "schemas/ai.onnx/AveragePool.yaml"


def test_no_unexplained_onnx_drift() -> None:
    assert drift_onnx(REPO_SCHEMAS) == []


def test_no_unexplained_ort_drift() -> None:
    pytest.importorskip("onnxruntime")
    assert drift_ort(REPO_SCHEMAS) == []


@pytest.fixture()
def registry(tmp_path: Path) -> Path:
    """A copy of the ai.onnx part of the registry, in a folder named `schemas` like the real one."""
    root = tmp_path / "schemas"
    shutil.copytree(REPO_SCHEMAS / "ai.onnx", root / "ai.onnx")
    shutil.copy(REPO_SCHEMAS / "drift_exceptions.yaml", root / "drift_exceptions.yaml")
    return root


def _edit_pool(root: Path, since: int, edit: str) -> None:
    path = root / "ai.onnx" / "AveragePool.yaml"
    doc = load_op_file(path)
    version = next(v for v in doc["versions"] if v["since"] == since)
    if edit == "ceil_mode default":
        version["attributes"]["ceil_mode"]["default"] = 1
    elif edit == "drop version":
        doc["versions"].remove(version)
    elif edit == "narrow type":
        version["type_constraints"]["T"]["types"].remove("tensor(bfloat16)")
    elif edit == "optional input":
        version["inputs"][0]["optional"] = True
    path.write_text(dump_op(doc), encoding="utf-8")


def test_changed_default_is_reported_in_every_inheriting_version(registry: Path) -> None:
    _edit_pool(registry, 10, "ceil_mode default")
    lines = drift_onnx(registry)
    assert f"ai.onnx::AveragePool@10: attribute ceil_mode default 0 in onnx, 1 in {POOL_FILE}" in lines
    assert f"ai.onnx::AveragePool@22: attribute ceil_mode default 0 in onnx, 1 in {POOL_FILE}" in lines
    assert len(lines) == 4  # versions 10, 11, 19, 22


def test_missing_version_is_reported(registry: Path) -> None:
    _edit_pool(registry, 19, "drop version")
    lines = drift_onnx(registry)
    assert f"ai.onnx::AveragePool@19: version 19 in onnx, missing in {POOL_FILE}" in lines


def test_type_constraint_and_param_drift_is_reported(registry: Path) -> None:
    _edit_pool(registry, 22, "narrow type")
    _edit_pool(registry, 1, "optional input")
    lines = drift_onnx(registry)
    assert any(line.startswith("ai.onnx::AveragePool@22: type constraint T is [") for line in lines)
    assert f"ai.onnx::AveragePool@7: input 0 (X) optional false in onnx, true in {POOL_FILE}" in lines


def test_unknown_op_is_reported_and_removed_op_is_not(registry: Path) -> None:
    ghost: dict[str, Any] = {"name": "Ghost", "domain": "ai.onnx", "category": "Other", "summary": "None.",
                             "versions": [{"since": 1, "changes": "initial"}]}
    (registry / "ai.onnx" / "Ghost.yaml").write_text(dump_op(ghost), encoding="utf-8")
    assert drift_onnx(registry) == ["ai.onnx::Ghost: schemas/ai.onnx/Ghost.yaml has an op onnx does not know"]
    ghost["status"] = {"state": "removed", "removed_in": "1.0"}
    (registry / "ai.onnx" / "Ghost.yaml").write_text(dump_op(ghost), encoding="utf-8")
    assert drift_onnx(registry) == []


def _add_exceptions(root: Path, *entries: dict[str, object]) -> None:
    path = root / "drift_exceptions.yaml"
    listed = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    path.write_text(yaml.safe_dump([*listed, *entries]), encoding="utf-8")


def test_exception_explains_drift_and_stale_exception_is_reported(registry: Path) -> None:
    _edit_pool(registry, 10, "ceil_mode default")
    _add_exceptions(registry, {"op": "AveragePool", "domain": "ai.onnx", "version": None,
                               "field": "attributes.ceil_mode", "reason": "test"})
    assert drift_onnx(registry) == []
    _add_exceptions(registry, {"op": "Relu", "domain": "ai.onnx", "version": 6, "field": "versions",
                               "reason": "matches nothing"})
    assert drift_onnx(registry) == ["schemas/drift_exceptions.yaml: stale exception ai.onnx::Relu@6 versions "
                                    "matches no drift"]


def test_malformed_exception_is_reported(registry: Path) -> None:
    _add_exceptions(registry, {"op": "Relu", "domain": "ai.onnx", "field": "versions"})
    assert any("needs non-empty op, domain, field and reason" in line for line in drift_onnx(registry))


def test_loader_resolves_versions_like_the_drift_check(tmp_path: Path) -> None:
    """The lead's loader and drift's resolver agree on every compared fact of the imported ops."""
    load = pytest.importorskip("opset.load")
    root = tmp_path / "schemas"
    for domain in ("ai.onnx", "com.microsoft", "meta"):
        shutil.copytree(REPO_SCHEMAS / domain, root / domain)
    registry = load.load_registry(root, use_cache=False)
    for domain in ("ai.onnx", "com.microsoft"):
        for path in sorted((root / domain).glob("[A-Z]*.yaml")):
            doc = load_op_file(path)
            op = registry.op(domain, doc["name"])
            for version, resolved in zip(doc["versions"], resolve_versions(doc["versions"]), strict=True):
                loaded = loaded_version_facts(op.version(version["since"]))
                assert loaded == registry_facts(resolved), op_label(domain, doc["name"], version["since"])
