"""The onnx/onnxruntime importers: encoding with version inheritance, refresh semantics, idempotence, CLI."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest

from opset.importers import ImporterError, import_onnx, import_ort, main_import_onnx
from opset.importers.onnx_defs import build_onnx_op, onnx_history
from opset.importers.yaml_writer import (
    HAND_ATTRIBUTE_KEYS,
    HAND_PARAM_KEYS,
    dump_op,
    load_op_file,
    resolve_versions,
)

REPO_SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
# The committed ai.onnx files that come from onnx (hand-written ones, such as removed draft ops, aside).
IMPORTED_ONNX_OPS = sorted(p.stem for p in (REPO_SCHEMAS / "ai.onnx").glob("[A-Z]*.yaml") if p.stem in onnx_history())
SIGNATURE_KEYS = ("attributes", "inputs", "outputs", "type_constraints")


def _without_hand_keys(version: dict[str, Any]) -> dict[str, Any]:
    """The importer-owned part of a resolved version."""
    out: dict[str, Any] = {key: copy.deepcopy(version.get(key, {} if key in ("attributes", "type_constraints")
                                                           else [])) for key in SIGNATURE_KEYS}
    for spec in out["attributes"].values():
        for key in HAND_ATTRIBUTE_KEYS:
            spec.pop(key, None)
    for param in out["inputs"] + out["outputs"]:
        for key in HAND_PARAM_KEYS:
            param.pop(key, None)
    return out


def _source_signature(full: dict[str, Any]) -> dict[str, Any]:
    return {key: full[key] for key in SIGNATURE_KEYS}


@pytest.fixture()
def schemas(tmp_path: Path) -> Path:
    root = tmp_path / "schemas"
    import_onnx(root, ["AveragePool", "Upsample", "Clip", "BatchNormalization", "LeakyRelu"], create=True)
    return root


def test_resolved_versions_reproduce_onnx_exactly(tmp_path: Path) -> None:
    root = tmp_path / "schemas"
    import_onnx(root, IMPORTED_ONNX_OPS, create=True)
    for name in IMPORTED_ONNX_OPS:
        source = build_onnx_op(name)
        doc = load_op_file(root / "ai.onnx" / f"{name}.yaml")
        assert [v["since"] for v in doc["versions"]] == [v["since"] for v in source.versions], name
        for resolved, full in zip(resolve_versions(doc["versions"]), source.versions, strict=True):
            assert _without_hand_keys(resolved) == _source_signature(full), f"{name}@{full['since']}"


def test_committed_files_reproduce_onnx() -> None:
    """The committed files, hand content aside, resolve to exactly what onnx states."""
    for name in IMPORTED_ONNX_OPS:
        doc = load_op_file(REPO_SCHEMAS / "ai.onnx" / f"{name}.yaml")
        resolved = {v["since"]: v for v in resolve_versions(doc["versions"])}
        for full in build_onnx_op(name).versions:
            assert _without_hand_keys(resolved[full["since"]]) == _source_signature(full), f"{name}@{full['since']}"


def test_committed_files_are_up_to_date(tmp_path: Path) -> None:
    copy_root = tmp_path / "schemas"
    for domain in ("ai.onnx", "com.microsoft"):
        shutil.copytree(REPO_SCHEMAS / domain, copy_root / domain)
    assert import_onnx(copy_root, None, create=False) == [], "run: opset import-onnx"
    pytest.importorskip("onnxruntime")
    assert import_ort(copy_root, None, create=False) == [], "run: opset import-ort"


def test_versions_state_only_what_changed(schemas: Path) -> None:
    pool = load_op_file(schemas / "ai.onnx" / "AveragePool.yaml")
    by_since = {v["since"]: v for v in pool["versions"]}
    assert list(by_since) == [1, 7, 10, 11, 19, 22]
    assert set(by_since[7]) == {"since", "changes", "attributes"}
    assert list(by_since[7]["attributes"]) == ["count_include_pad"]
    assert set(by_since[22]) == {"since", "changes", "type_constraints"}
    clip = {v["since"]: v for v in load_op_file(schemas / "ai.onnx" / "Clip.yaml")["versions"]}
    assert clip[11]["attributes"] == {"max": None, "min": None}
    assert [p["name"] for p in clip[11]["inputs"]] == ["input", "min", "max"]


def test_generated_changes_text(schemas: Path) -> None:
    pool = {v["since"]: v["changes"] for v in load_op_file(schemas / "ai.onnx" / "AveragePool.yaml")["versions"]}
    assert pool[1] == "initial"
    assert pool[7] == "adds attribute count_include_pad"
    assert pool[10] == "adds attribute ceil_mode"
    assert pool[22] == "type T widened with bfloat16"
    clip = {v["since"]: v["changes"] for v in load_op_file(schemas / "ai.onnx" / "Clip.yaml")["versions"]}
    assert clip[11].startswith("removes attribute max, min; adds input min, max")


def test_seed_004_averagepool_versions_match_onnx(schemas: Path) -> None:
    """Seed 004 documents AveragePool 1, 7, 10 and 11; its attributes, defaults and types hold in the file."""
    doc = load_op_file(schemas / "ai.onnx" / "AveragePool.yaml")
    resolved = {v["since"]: v for v in resolve_versions(doc["versions"])}
    seed_attributes = {1: {"auto_pad", "kernel_shape", "pads", "strides"}}
    seed_attributes[7] = seed_attributes[1] | {"count_include_pad"}
    seed_attributes[10] = seed_attributes[7] | {"ceil_mode"}
    seed_attributes[11] = seed_attributes[10]
    for since, names in seed_attributes.items():
        version = resolved[since]
        assert set(version["attributes"]) == names, since
        assert version["attributes"]["auto_pad"]["default"] == "NOTSET"
        assert version["attributes"]["kernel_shape"] == {**version["attributes"]["kernel_shape"], "required": True}
        assert sorted(version["type_constraints"]["T"]["types"]) == ["tensor(double)", "tensor(float)",
                                                                     "tensor(float16)"]
        assert [p["name"] for p in version["inputs"]] == ["X"] and [p["name"] for p in version["outputs"]] == ["Y"]
    assert resolved[10]["attributes"]["ceil_mode"]["default"] == 0
    assert resolved[7]["attributes"]["count_include_pad"]["default"] == 0


def test_deprecation_float_defaults_and_renames(schemas: Path) -> None:
    upsample = load_op_file(schemas / "ai.onnx" / "Upsample.yaml")
    assert upsample["status"] == {"state": "deprecated", "since": 10}
    assert [v["since"] for v in upsample["versions"]] == [1, 7, 9, 10]  # experimental Upsample-1 included
    assert upsample["versions"][-1]["changes"] == "deprecated"
    leaky = load_op_file(schemas / "ai.onnx" / "LeakyRelu.yaml")
    assert leaky["versions"][0]["attributes"]["alpha"]["default"] == 0.01
    batchnorm = load_op_file(schemas / "ai.onnx" / "BatchNormalization.yaml")
    outputs = [p["name"] for p in batchnorm["versions"][0]["outputs"]]
    assert outputs == ["Y", "running_mean", "running_var", "saved_mean", "saved_var"]


def _add_hand_content(doc: dict[str, Any]) -> dict[str, Any]:
    hand = copy.deepcopy(doc)
    hand["summary"] = "Average pooling over sliding windows of the spatial axes."
    hand["doc"] = "Hand-written text."
    hand["seed_note"] = "seed 004 documents versions 1, 7, 10 and 11"
    hand["tolerance"] = {"float16": {"rtol": 0.001, "atol": 0.001}}
    first, second, third = hand["versions"][0], hand["versions"][1], hand["versions"][2]
    first["inputs"][0]["shape"] = ["N", "C", "*S"]
    first["outputs"][0]["shape"] = "[N, C] + [S[i] for i in range(r)]"
    first["let"] = {"r": "len(S)"}
    first["constraints"] = [{"id": "averagepool_c1", "expr": "len(kernel_shape) == r", "message": "rank"}]
    first["attributes"]["kernel_shape"].update({"length": "r", "range": [1, None]})
    first["attributes"]["pads"]["default_expr"] = "[0] * (2 * r)"
    first["attributes"]["auto_pad"]["allowed"] = ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]
    second["examples"] = [{"name": "averagepool_1d", "attributes": {"kernel_shape": [2]},
                           "inputs": {"X": {"dtype": "float32", "shape": [1, 1, 3], "data": [1, 2, 3]}},
                           "outputs": {"Y": {"dtype": "float32", "shape": [1, 1, 2], "data": [1.5, 2.5]}}}]
    second["properties"] = ["shape_preserving"]
    third["changes"] = "adds ceil_mode (hand-written)"
    third["doc"] = "Version 10 text."
    # An attribute restated by hand where the importer states nothing, to give it `allowed`.
    third["attributes"]["count_include_pad"] = {"type": "int", "default": 0, "allowed": [0, 1]}
    return hand


def test_refresh_keeps_hand_content_and_changes_nothing_else(schemas: Path) -> None:
    path = schemas / "ai.onnx" / "AveragePool.yaml"
    hand = _add_hand_content(load_op_file(path))
    path.write_text(dump_op(hand), encoding="utf-8")
    assert import_onnx(schemas, None, create=False) == []
    assert load_op_file(path) == hand
    assert import_onnx(schemas, ["AveragePool"], create=True) == []
    assert load_op_file(path) == hand


def test_refresh_restores_imported_content_around_hand_content(schemas: Path) -> None:
    path = schemas / "ai.onnx" / "AveragePool.yaml"
    hand = _add_hand_content(load_op_file(path))
    broken = copy.deepcopy(hand)
    broken["versions"][2]["attributes"]["ceil_mode"]["default"] = 1
    broken["versions"][0]["inputs"][0]["type"] = "T2"
    path.write_text(dump_op(broken), encoding="utf-8")
    assert import_onnx(schemas, ["AveragePool"], create=False) == [path]
    assert load_op_file(path) == hand


def test_second_import_writes_nothing(schemas: Path) -> None:
    before = {p: p.read_text(encoding="utf-8") for p in (schemas / "ai.onnx").glob("*.yaml")}
    assert import_onnx(schemas, None, create=False) == []
    assert import_onnx(schemas, ["AveragePool", "Clip"], create=True) == []
    assert {p: p.read_text(encoding="utf-8") for p in (schemas / "ai.onnx").glob("*.yaml")} == before


def test_refresh_without_create_needs_the_file(schemas: Path) -> None:
    with pytest.raises(ImporterError, match="no file yet for Relu"):
        import_onnx(schemas, ["Relu"], create=False)
    with pytest.raises(ImporterError, match="no such op in the source: NoSuchOp"):
        import_onnx(schemas, ["NoSuchOp"], create=True)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "schemas"
    assert main_import_onnx(["--schemas", str(root), "--op", "Relu", "Abs"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert sorted(p.name for p in (root / "ai.onnx").iterdir()) == ["Abs.yaml", "Relu.yaml"]
    assert main_import_onnx(["--schemas", str(root)]) == 0
    assert "0 file(s) written" in capsys.readouterr().out
    assert main_import_onnx(["--schemas", str(root), "--op", "Nope"]) == 1
    assert "Nope" in capsys.readouterr().err


def test_ort_contrib_import(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    root = tmp_path / "schemas"
    written = import_ort(root, ["FastGelu"], create=True)
    assert written == [root / "com.microsoft" / "FastGelu.yaml"]
    doc = load_op_file(written[0])
    assert doc["domain"] == "com.microsoft" and doc["category"] == "Activation"
    version = doc["versions"][0]
    assert [(p["name"], p.get("optional", False)) for p in version["inputs"]] == [("X", False), ("bias", True)]
    assert import_ort(root, None, create=False) == []


def test_a_hand_narrowed_type_constraint_survives_a_reimport() -> None:
    from opset.importers.yaml_writer import _narrowed_or_generated

    source = {"types": ["tensor(float)", "tensor(int32)", "tensor(double)"], "doc": "source"}
    narrowed = {"T": {"types": ["tensor(float)", "tensor(double)"], "doc": "mine"}}
    assert _narrowed_or_generated(narrowed, "T", source) == narrowed["T"]
    widened = {"T": {"types": ["tensor(float)", "tensor(int32)", "tensor(double)", "tensor(bool)"], "doc": "mine"}}
    assert _narrowed_or_generated(widened, "T", source) == source
    assert _narrowed_or_generated({"T": {"types": ["tensor(bool)"]}}, "T", source) == source  # not a subset
    assert _narrowed_or_generated(None, "T", source) == source
