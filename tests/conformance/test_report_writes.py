"""The JSON report is rewritten at most once a WRITE_INTERVAL while results arrive, at once on a failure, and at the
end (a whole-registry run rewrote it after every one of its results)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.runner import report as report_module
from conformance.runner.report import WRITE_COST_FACTOR, WRITE_INTERVAL, ReportWriter, RunReport
from conformance.runner.results import CellResult, Outcome


def _cells(path: Path) -> list[str]:
    return sorted(json.loads(path.read_text(encoding="utf-8"))["cells"])


def _record(report: RunReport, writer: ReportWriter, dtype: str, status: str) -> None:
    """One cell of Relu-14 done with `status`, as the run adds and writes it."""
    report.add(CellResult.of(("ai.onnx", "Relu", 14, dtype), [Outcome("properties", status)]))
    writer.maybe_write(report, urgent=status == "fail")


def test_results_are_written_once_an_interval_failures_at_once_and_all_at_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(report_module.time, "monotonic", lambda: clock[0])
    path = tmp_path / "report.json"
    report, writer = RunReport("reference"), ReportWriter(path)
    _record(report, writer, "float", "pass")
    assert _cells(path) == ["ai.onnx@14::Relu[float]"]  # the first result is written
    _record(report, writer, "double", "pass")
    assert _cells(path) == ["ai.onnx@14::Relu[float]"]  # within the interval: not yet
    clock[0] += WRITE_INTERVAL
    _record(report, writer, "int8", "pass")
    assert len(_cells(path)) == 3  # the interval passed: everything so far
    _record(report, writer, "int16", "pass")
    _record(report, writer, "int32", "fail")
    assert len(_cells(path)) == 5  # a failure is written at once, with what came before it
    _record(report, writer, "int64", "pass")
    report.finish([])
    writer.write(report)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["complete"] and len(data["cells"]) == 6


def test_a_slow_rewrite_pushes_the_next_one_back_by_its_cost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(report_module.time, "monotonic", lambda: clock[0])
    real_replace = report_module.os.replace

    def slow_replace(source: str, target: Path) -> None:  # each rewrite takes half a second of the clock
        clock[0] += 0.5
        real_replace(source, target)

    monkeypatch.setattr(report_module.os, "replace", slow_replace)
    path = tmp_path / "report.json"
    report, writer = RunReport("reference"), ReportWriter(path)
    _record(report, writer, "float", "pass")  # written, in 0.5 s
    wait = WRITE_COST_FACTOR * 0.5
    assert wait > WRITE_INTERVAL
    clock[0] += wait - 0.1
    _record(report, writer, "double", "pass")
    assert _cells(path) == ["ai.onnx@14::Relu[float]"]  # the interval passed, the rewrite's cost did not
    clock[0] += 0.1
    _record(report, writer, "int8", "pass")
    assert len(_cells(path)) == 3
    _record(report, writer, "int16", "fail")
    assert len(_cells(path)) == 4  # a failure still goes out at once


def test_a_report_that_cannot_be_written_keeps_what_it_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk during a rewrite: one line naming the file, the previous report left whole."""
    path = tmp_path / "report.json"
    report, writer = RunReport("reference"), ReportWriter(path)
    _record(report, writer, "float", "fail")
    before = path.read_text(encoding="utf-8")

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report_module.os, "replace", full)
    _record(report, writer, "double", "pass")
    with pytest.raises(report_module.OutputFailed, match=f"cannot write the report {path}: No space left on device"):
        writer.write(report)
    assert path.read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left behind
