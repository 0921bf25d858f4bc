"""`tools/regenerate-reports`: each backend's shards run and merged into its report, one that does not load skipped
with the command that installs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.runner import reports
from tests.helpers.conform_cli import conform


def test_the_shards_merged_are_the_report_of_one_run_and_a_missing_backend_is_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "available", lambda backend: None if backend == "reference" else
                        "backend 'tract': cannot import module 'tract'")
    code = reports.main(["--backend", "reference", "--backend", "tract", "--op", "Relu,Abs", "--shards", "3",
                         "--jobs", "2", "--reports", str(tmp_path / "reports"), "--no-docs"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "tract skipped, it does not load here (backend 'tract': cannot import module 'tract'); install it with " \
           "python -m pip install -e '.[tract]' -c constraints.txt" in err
    assert not (tmp_path / "reports" / "tract.json").exists()
    merged = json.loads((tmp_path / "reports" / "reference.json").read_text())
    whole = tmp_path / "whole.json"
    conform("--backend", "reference", "--op", "Relu,Abs", "--report", str(whole))
    one = json.loads(whole.read_text())
    assert merged["complete"] and merged["cells"] == one["cells"]


def test_a_partial_regeneration_never_writes_the_committed_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert reports.main(["--backend", "reference", "--op", "Relu"]) == 2
    assert "--op and --domain make partial reports" in capsys.readouterr().err
    assert reports.main(["--backend", "reference", "--refresh"]) == 2
    assert "--refresh needs a selection" in capsys.readouterr().err


def test_a_refresh_replaces_the_selections_cells_and_keeps_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "reports"
    common = ["--backend", "reference", "--shards", "2", "--reports", str(folder), "--no-docs"]
    assert reports.main([*common, "--op", "Relu", "--refresh"]) == 1  # nothing to refresh yet
    assert "no report" in capsys.readouterr().err
    assert reports.main([*common, "--op", "Relu,Abs"]) == 0
    path = folder / "reference.json"
    base = json.loads(path.read_text())
    stale = {k: {**c, "status": "fail", "messages": ["stale"]} for k, c in base["cells"].items()}
    path.write_text(json.dumps({**base, "cells": stale}))
    assert reports.main([*common, "--op", "Relu", "--refresh"]) == 0, capsys.readouterr().err
    after = json.loads(path.read_text())
    assert set(after["cells"]) == set(base["cells"])
    for key, cell in after["cells"].items():
        assert cell == (base["cells"][key] if cell["op"] == "Relu" else stale[key]), key
    assert [(r["op"], r["domain"], r["replaced"]) for r in after["refreshed"]] == [
        (["Relu"], [], sum(c["op"] == "Relu" for c in base["cells"].values()))]
    assert after["started"] == base["started"] and after["complete"]


def test_a_backend_is_regenerated_at_its_reports_breadth_and_a_selection_narrows_it() -> None:
    tract = reports.BREADTH["tract"]
    assert tract.arguments([], []) == ["--op", ",".join(reports.COMMON_OPS), "--domain", "ai.onnx",
                                       "--max-examples", "10", "--timeout", "60"]
    assert tract.arguments(["Relu"], []) == ["--op", "Relu", "--domain", "ai.onnx", "--max-examples", "10",
                                             "--timeout", "60"]
    assert reports.Breadth().arguments([], []) == []  # the whole registry at conform's defaults
    assert reports.Breadth().arguments(["Abs"], ["ai.onnx"]) == ["--op", "Abs", "--domain", "ai.onnx"]


def test_the_common_ops_are_the_ones_docs_backends_md_names() -> None:
    text = (reports.ROOT / "docs" / "backends.md").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("OPS="))
    assert tuple(line.removeprefix("OPS=").split(",")) == reports.COMMON_OPS
