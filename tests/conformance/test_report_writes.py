"""The JSON report is rewritten at most once a WRITE_INTERVAL while results arrive, at once on a failure, and at the
end (a whole-registry run rewrote it after every one of its results)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.runner import report as report_module
from conformance.runner.report import WRITE_COST_FACTOR, WRITE_INTERVAL, Report


def _cells(path: Path) -> list[str]:
    return sorted(json.loads(path.read_text(encoding="utf-8"))["cells"])


def test_results_are_written_once_an_interval_failures_at_once_and_all_at_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(report_module.time, "monotonic", lambda: clock[0])
    path = tmp_path / "report.json"
    report = Report(path, "reference")
    report.record(("ai.onnx", "Relu", 14, "float"), "pass", "", {})
    assert _cells(path) == ["ai.onnx@14::Relu[float]"]  # the first result is written
    report.record(("ai.onnx", "Relu", 14, "double"), "pass", "", {})
    assert _cells(path) == ["ai.onnx@14::Relu[float]"]  # within the interval: not yet
    clock[0] += WRITE_INTERVAL
    report.record(("ai.onnx", "Relu", 14, "int8"), "pass", "", {})
    assert len(_cells(path)) == 3  # the interval passed: everything so far
    report.record(("ai.onnx", "Relu", 14, "int16"), "pass", "", {})
    report.record(("ai.onnx", "Relu", 14, "int32"), "fail", "wrong", {})
    assert len(_cells(path)) == 5  # a failure is written at once, with what came before it
    report.record(("ai.onnx", "Relu", 14, "int64"), "pass", "", {})
    report.finish([])
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
    report = Report(path, "reference")
    report.record(("ai.onnx", "Relu", 14, "float"), "pass", "", {})  # written, in 0.5 s
    wait = WRITE_COST_FACTOR * 0.5
    assert wait > WRITE_INTERVAL
    clock[0] += wait - 0.1
    report.record(("ai.onnx", "Relu", 14, "double"), "pass", "", {})
    assert _cells(path) == ["ai.onnx@14::Relu[float]"]  # the interval passed, the rewrite's cost did not
    clock[0] += 0.1
    report.record(("ai.onnx", "Relu", 14, "int8"), "pass", "", {})
    assert len(_cells(path)) == 3
    report.record(("ai.onnx", "Relu", 14, "int16"), "fail", "wrong", {})
    assert len(_cells(path)) == 4  # a failure still goes out at once
