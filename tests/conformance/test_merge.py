"""`conform merge`: the reports of `conform --shard K/N` runs put back together equal one unsharded run's."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from conformance.runner.merge import MergeError, merge_reports
from tests.helpers.conform_cli import conform

WRONG = "tests.conformance.wrong_backends.conv_ignores_dilations"  # some cells fail, with messages and bundles
TIMING = ("time", "duration", "seconds", "elapsed", "started", "finished")


def _untimed(value: Any) -> Any:
    """A report without what depends on when and how long it ran."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not any(t in k for t in TIMING)}
    return value


def _cases(junit: Path) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    suite = ET.parse(junit).getroot()
    rows = []
    for case in suite.iter("testcase"):
        outcome = "failure" if case.find("failure") is not None else "skipped" if case.find("skipped") else "pass"
        props = sorted((p.get("name", ""), p.get("value", "")) for p in case.iter("property"))
        rows.append((case.get("classname", ""), case.get("name", ""), outcome, props))
    return rows


def test_three_shards_merged_equal_the_unsharded_run(tmp_path: Path) -> None:
    common = ["--backend", WRONG, "--op", "Conv,Relu,Abs", "--domain", "ai.onnx", "--max-examples", "10",
              "--repro-dir", str(tmp_path / "repro")]
    whole = conform(*common, "--report", str(tmp_path / "whole.json"), "--junit", str(tmp_path / "whole.xml"))
    assert whole.returncode == 1, whole.stdout[-2000:] + whole.stderr[-2000:]
    parts = []
    for k in (1, 2, 3):
        part = tmp_path / f"r{k}.json"
        result = conform(*common, "--shard", f"{k}/3", "--report", str(part), "-n", "2" if k == 2 else "0")
        assert result.returncode in (0, 1), result.stdout[-2000:] + result.stderr[-2000:]
        parts.append(part)
    merged = conform("merge", *map(str, parts), "--report", str(tmp_path / "all.json"),
                     "--junit", str(tmp_path / "all.xml"))
    assert merged.returncode == 1, merged.stdout + merged.stderr  # a cell failed, as in the whole run
    one = json.loads((tmp_path / "whole.json").read_text())
    shards = [json.loads(p.read_text()) for p in parts]
    assert all(s["cells"] for s in shards)  # each shard ran some cells ...
    assert sum(len(s["cells"]) for s in shards) == len(one["cells"])  # ... and none twice
    together = json.loads((tmp_path / "all.json").read_text())
    assert _untimed(together) == _untimed(one)
    assert together["complete"] and "shard" not in together
    assert _cases(tmp_path / "all.xml") == _cases(tmp_path / "whole.xml")
    assert [ln for ln in merged.stdout.splitlines() if ln.startswith("FAIL ")] == \
        [ln for ln in whole.stdout.splitlines() if ln.startswith("FAIL ")]


def _report(shard: str | None, *cells: str, backend: str = "reference") -> dict[str, Any]:
    data: dict[str, Any] = {"backend": backend, "started": 1.0, "finished": 2.0, "complete": True,
                            "unmatched_expectations": [],
                            "cells": {c: {"domain": "ai.onnx", "op": c, "version": 1, "dtype": "float",
                                          "status": "pass", "messages": []} for c in cells}}
    if shard is not None:
        data["shard"] = shard
    return data


def test_a_missing_shard_leaves_the_merge_incomplete() -> None:
    merged, warnings = merge_reports([("a", _report("1/3", "x")), ("c", _report("3/3", "z"))])
    assert set(merged.cells) == {"x", "z"} and not merged.complete
    assert warnings == ["shard 2/3 is missing: the merged report lacks its cells"]


@pytest.mark.parametrize(("reports", "message"), [
    ([("a", _report("1/2", "x")), ("b", _report("2/2", "x"))], "x is in both a and b"),
    ([("a", _report("1/2", "x")), ("b", _report("2/2", "y", backend="onnxruntime"))], "different backends"),
    ([("a", _report("1/2", "x")), ("b", _report("2/3", "y"))], "different splits"),
    ([("a", _report("1/2", "x")), ("b", _report(None, "y"))], "b is not a shard"),
    ([("a", {"backend": "reference"})], "a is not a conform report"),
    ([("a", _report("1/2", "x")), ("b", {**_report("2/2", "y"), "constant_inputs": "params"})],
     "feed different inputs as constants"),
])
def test_reports_of_different_runs_are_refused(reports: list[tuple[str, dict[str, Any]]], message: str) -> None:
    with pytest.raises(MergeError, match=message):
        merge_reports(reports)


def test_merge_of_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    for path in (tmp_path / "bad.json", tmp_path / "absent.json"):
        result = conform("merge", str(path), "--report", str(tmp_path / "out.json"))
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith(f"conform merge: {path}")
    assert not (tmp_path / "out.json").exists()


def test_help_names_the_merge_command_and_merge_has_its_own_help() -> None:
    assert "conform merge ..." in conform("--help").stdout
    own = conform("merge", "--help")
    assert own.returncode == 0 and "--junit" in own.stdout and "usage: conform merge" in own.stdout


def test_merging_without_a_shard_writes_an_incomplete_report_and_exits_1(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from conformance.runner.merge import run

    for name, shard, cell in (("a", "1/3", "x"), ("c", "3/3", "z")):
        (tmp_path / f"{name}.json").write_text(json.dumps(_report(shard, cell)), encoding="utf-8")
    out = tmp_path / "all.json"
    code = run(argparse.Namespace(reports=[tmp_path / "a.json", tmp_path / "c.json"], report=out, junit=None))
    assert code == 1 and "shard 2/3 is missing" in capsys.readouterr().err
    merged = json.loads(out.read_text())
    assert set(merged["cells"]) == {"x", "z"} and merged["complete"] is False
