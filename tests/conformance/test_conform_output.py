"""What `conform` prints: a progress over cells, a table per op, one line per failing cell that replays it."""

from __future__ import annotations

import io
import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from conformance.runner.checks import ConformanceFailure, check_case
from conformance.runner.junit import junit_tree
from conformance.runner.progress import CellTally, LineDisplay
from conformance.runner.report import RunReport, failure_line
from conformance.runner.results import CellResult, Failure
from conformance.runner.settings import CheckSettings
from conformance.strategies.case import Case
from tests.helpers.conform_cli import conform

RELU6 = "tests.conformance.wrong_backends.relu6_clips_at_5"


def test_a_piped_run_prints_plain_progress_lines_and_no_pytest_output(tmp_path: Path) -> None:
    """With xdist's two workers and stdout not a terminal: a line of cells to run, lines of progress ending at all
    of them, the table; no pytest dots, test ids or tracebacks; no report path when no --report was asked for."""
    result = conform("--backend", "reference", "--op", "Relu,Abs", "--domain", "ai.onnx", "--max-examples", "2",
                     "-n", "2", "--junit", str(tmp_path / "r.xml"))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    cells = int(ET.parse(tmp_path / "r.xml").getroot().get("tests", "0"))
    lines = result.stdout.splitlines()
    assert f"conform: {cells} cells to run" in lines
    assert any(ln.startswith(f"conform: {cells}/{cells} cells (100%), 0 failed") for ln in lines), lines
    assert not any("passed" in ln or "::test_" in ln or "[100%]" in ln for ln in lines), lines
    assert "report:" not in result.stdout and len(lines) < 40
    assert f"{cells} cells in " in result.stdout


def test_a_failing_cell_gets_one_line_whose_command_replays_it(tmp_path: Path) -> None:
    """Without --repro-dir the bundles go to conform-repro/ below the current folder, and stay there."""
    result = conform("--backend", RELU6, "--op", "Relu6", "--max-examples", "10", "--report",
                     str(tmp_path / "r.json"), cwd=tmp_path)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    failing = [k for k, c in json.loads((tmp_path / "r.json").read_text())["cells"].items() if c["status"] == "fail"]
    lines = [ln for ln in result.stdout.splitlines() if ln.startswith("FAIL ")]
    assert sorted(ln.split("]", 1)[0] + "]" for ln in lines) == sorted(f"FAIL {k}" for k in failing)
    line = lines[0]
    assert "inputs (X:" in line and "| replay: conform --backend" in line
    command = shlex.split(line.split("| replay: ", 1)[1])
    bundle = tmp_path / command[command.index("--replay") + 1]
    assert bundle.is_relative_to(tmp_path / "conform-repro") and (bundle / "case.json").is_file()
    again = conform(*command[1:], cwd=tmp_path)
    assert again.returncode == 1 and again.stderr.startswith("FAIL "), again.stdout + again.stderr
    assert "Failing test case" not in result.stdout and "Traceback" not in result.stdout


def test_verbose_shows_each_test_and_the_whole_failure(tmp_path: Path) -> None:
    result = conform("--backend", RELU6, "--op", "Relu6", "--max-examples", "10", "-v",
                     "--repro-dir", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(ln.startswith("FAIL") and "ai.onnx.modified@1::Relu6[float] properties" in ln for ln in lines), lines
    assert "Traceback (most recent call last)" in result.stdout and "ConformanceFailure" in result.stdout
    assert "Failing test case" in result.stdout or "Falsifying example" in result.stdout  # Hypothesis' own account


def test_plain_lines_come_at_each_tenth() -> None:
    out = io.StringIO()
    display = LineDisplay(Console(file=out, width=200))
    display.collected(20)
    tally = CellTally(total=20)
    for _ in range(20):
        tally.finish_cell("pass")
        display.advance(tally)
    lines = out.getvalue().splitlines()
    assert lines[0] == "conform: 20 cells to run" and len(lines) == 11
    assert lines[-1].startswith("conform: 20/20 cells (100%), 0 failed")


def test_the_failure_line_shows_the_shortest_case_and_a_relative_replay(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    label = "ai.onnx@14::Relu[float]"
    long_case = Failure("bad", "inputs (X:float32[4, 5])",
                        f"conform --backend m --replay {tmp_path}/conform-repro/long --timeout 20")
    short_case = Failure("bad", "inputs (X:float32[1])",
                         f"conform --backend m --replay {tmp_path}/conform-repro/short --timeout 20", "(example e)")
    cell = CellResult("ai.onnx", "Relu", 14, "float", "fail", failures=(long_case, short_case),
                      repro=str(tmp_path / "conform-repro" / "long"))
    assert failure_line(cell, "m") == (f"FAIL {label} (example e): bad; inputs (X:float32[1]) | replay: conform "
                                       "--backend m --replay conform-repro/short --timeout 20")
    without = CellResult("ai.onnx", "Relu", 14, "float", "fail", failures=(Failure("bad", "inputs (X:float32[4])"),),
                         repro=str(tmp_path / "conform-repro" / "long"))
    assert failure_line(without, "m").endswith("| replay: conform --backend m --replay conform-repro/long")


def test_a_report_of_an_older_conform_gives_the_same_failure_line(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A report without structured failures (merged from an older conform's shards): the line from its messages."""
    monkeypatch.chdir(tmp_path)
    label = "ai.onnx@14::Relu[float]"
    long_case = f"conformance.runner.checks.ConformanceFailure: {label}: bad; inputs (X:float32[4, 5]) | repro: " \
                f"conform --backend m --replay {tmp_path}/conform-repro/long --timeout 20"
    short_case = f"{label} (example e): bad; inputs (X:float32[1]) | repro: conform --backend m --replay " \
                 f"{tmp_path}/conform-repro/short --timeout 20"
    cell = CellResult("ai.onnx", "Relu", 14, "float", "fail", messages=(long_case, short_case),
                      repro=str(tmp_path / "conform-repro" / "long"))
    assert failure_line(cell, "m") == (f"FAIL {label} (example e): bad; inputs (X:float32[1]) | replay: conform "
                                       "--backend m --replay conform-repro/short --timeout 20")
    cut = CellResult("ai.onnx", "Relu", 14, "float", "fail",
                     messages=(long_case.split(" | repro:")[0] + " | repro: conform --backend 'm",),
                     repro=str(tmp_path / "conform-repro" / "long"))
    assert failure_line(cut, "m").endswith("| replay: conform --backend m --replay conform-repro/long")


def test_junit_has_a_case_per_cell() -> None:
    report = RunReport("b", started=1.0, finished=3.5)
    for dtype, status in [("float", "pass"), ("double", "fail"), ("int8", "unsupported")]:
        report.add(CellResult("ai.onnx", "Relu", 14, dtype, status, messages=("m",)))
    root = junit_tree(report).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped"), root.get("time")) == ("3", "1", "1", "2.500")
    names = {c.get("name"): c for c in root.iter("testcase")}
    assert names["ai.onnx@14::Relu[double]"].find("failure") is not None
    assert names["ai.onnx@14::Relu[int8]"].find("skipped") is not None


def test_a_backend_failing_only_on_a_propertys_second_run_is_told_so() -> None:
    from conformance.backends import resolve_backend
    from conformance.registry import current_registry

    version = current_registry().op("ai.onnx", "Abs").version(13)  # idempotent: f(f(x)) is run too
    x = np.array([-1.5, 2.0, 0.0], np.float32)
    case = Case(version, "float", {"T": "float"}, {}, {}, [x], ["X"], ["Y"], [[3]])

    class SecondRunFails:
        calls = 0

        def supports(self, call: object) -> bool:
            return True

        def run(self, call: object) -> list[object]:
            self.calls += 1
            if self.calls > 1:
                raise ValueError("no second run")
            return resolve_backend("reference").run(call)  # type: ignore[arg-type]

    with pytest.raises(ConformanceFailure, match=r"property idempotent: the case's own outputs are right, but the "
                                                 r"backend failed when run again on f\(f\(x\)\), its own output"):
        check_case(case, SecondRunFails(), CheckSettings(spec="m"))


def test_a_backend_file_whose_imports_fail_is_one_line(tmp_path: Path) -> None:
    backend = tmp_path / "needs_more.py"
    backend.write_text("import no_such_package_anywhere\n", encoding="utf-8")
    result = conform("--backend", str(backend), "--op", "Relu")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip().splitlines() == [f"conform: backend '{backend}': {backend} cannot import what it "
                                                  "needs: No module named 'no_such_package_anywhere'"]


def test_the_readmes_sample_output_is_what_conform_prints(tmp_path: Path) -> None:
    """The README's sample: its command run (from another folder, so the bundles land there) prints its table rows
    and FAIL line exactly; only timings may differ."""
    import re

    from tests.helpers.conform_cli import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sample = re.search(r"```text\n\$ PYTHONPATH=\. conform (.*?) \| cat\n(.*?)```", readme, re.S)
    assert sample, "the README lost its sample of conform's output"
    result = conform(*shlex.split(sample.group(1)), cwd=tmp_path)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    stable = [ln for ln in sample.group(2).splitlines() if not re.search(r"\d s\b|\d+ s,", ln)]
    assert stable and any(ln.startswith("FAIL ") for ln in stable)
    assert [ln for ln in result.stdout.splitlines() if not re.search(r"\d s\b|\d+ s,", ln)] == stable
