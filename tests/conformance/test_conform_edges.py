"""conform's edges (issue 27): every output path checked before the run, a write that fails during it, a reader that
goes away, an answer too large to ship, and an expected failure that makes no repro folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.conform_cli import ROOT, conform, run_and_report
from tests.helpers.folders import full_folder, read_only_folder

WRONG = "tests.conformance.wrong_backends"
RELU6 = f"{WRONG}.relu6_clips_at_5"
SMALL = ("--op", "Relu6", "--max-examples", "3")


def _one_line_error(result: subprocess.CompletedProcess[str], code: int, start: str) -> None:
    assert result.returncode == code, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(start) and "Traceback" not in result.stderr, result.stderr


@pytest.mark.parametrize("option", ["--report", "--junit"])
def test_a_folder_where_a_file_is_meant_is_a_usage_error_before_the_run(tmp_path: Path, option: str) -> None:
    result = conform("--backend", RELU6, *SMALL, option, str(tmp_path), cwd=tmp_path)
    _one_line_error(result, 2, f"conform: {option} {tmp_path}: is a folder, not a file")
    assert "cells to run" not in result.stdout and not (tmp_path / "conform-repro").exists()


def test_a_file_where_a_folder_is_meant_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    result = conform("--backend", RELU6, *SMALL, "--report", str(tmp_path / "taken" / "r.json"))
    _one_line_error(result, 2, f"conform: --report {tmp_path / 'taken' / 'r.json'}: {tmp_path / 'taken'} is a file")
    result = conform("--backend", RELU6, *SMALL, "--repro-dir", str(tmp_path / "taken"))
    _one_line_error(result, 2, f"conform: --repro-dir {tmp_path / 'taken'}: is a file, not a folder")


@pytest.mark.parametrize("option", ["--report", "--junit", "--repro-dir"])
def test_an_unwritable_output_is_a_usage_error_before_the_run(tmp_path: Path, option: str) -> None:
    """Was: --junit failed after the whole run, --report said "pytest exited with status 1 before any result was
    recorded", --repro-dir lost every failure's detail."""
    with read_only_folder(tmp_path / "ro") as ro:
        result = conform("--backend", RELU6, *SMALL, option, str(ro / "sub" / "out"), cwd=tmp_path)
    _one_line_error(result, 2, f"conform: {option} {tmp_path / 'ro' / 'sub' / 'out'}: cannot write there")
    assert "cells to run" not in result.stdout


def test_merge_and_export_check_their_outputs_first(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    run_and_report(tmp_path, "reference", "--op", "Relu6", "--max-examples", "1")
    with read_only_folder(tmp_path / "ro") as ro:
        merged = conform("merge", str(report), "--report", str(ro / "m.json"))
        exported = conform("export", str(ro / "corpus"), "--op", "Relu6", "--draws", "1")
    _one_line_error(merged, 2, f"conform merge: --report {ro / 'm.json'}: cannot write there")
    _one_line_error(exported, 2, f"conform export: {ro / 'corpus'}: cannot write there")


def test_a_write_that_fails_during_the_run_is_one_line_and_keeps_what_was_written(tmp_path: Path) -> None:
    """The JUnit XML goes to a device that is always full: exit 1 with one line, the JSON report whole."""
    result = conform("--backend", RELU6, *SMALL, "--report", str(tmp_path / "r.json"), "--junit", "/dev/full",
                     cwd=tmp_path)
    _one_line_error(result, 1, "conform: cannot write the JUnit XML /dev/full: No space left on device")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["complete"] and len(data["cells"]) == 3
    result = conform("--backend", RELU6, *SMALL, "--report", "/dev/full", cwd=tmp_path)
    _one_line_error(result, 1, "conform: cannot write the report /dev/full: No space left on device")


def test_a_full_repro_folder_stops_the_run_with_one_line(tmp_path: Path) -> None:
    with full_folder(tmp_path / "full", size_kb=8) as full:
        (full / "filler").write_bytes(b"\0" * 6 * 1024)
        result = conform("--backend", RELU6, "--op", "Relu6", "--max-examples", "10", "--repro-dir",
                         str(full / "repro"), "--report", str(tmp_path / "r.json"))
    _one_line_error(result, 1, f"conform: cannot write a repro bundle in {tmp_path / 'full' / 'repro'}: No space left")
    data = json.loads((tmp_path / "r.json").read_text())
    assert not data["complete"] and data["stopped"].startswith("output error: cannot write a repro bundle")
    assert data["cells"]  # the cell whose bundle failed is kept, its failure without a bundle


def test_an_expected_failure_makes_no_repro_folder(tmp_path: Path) -> None:
    """The docs say conform-repro/ is made only when a cell fails; an xfail is not a failure."""
    gaps = tmp_path / "gaps.yaml"
    gaps.write_text("- {op: Relu6, domain: ai.onnx.modified, kind: bug, reason: clips at 5}\n")
    result = conform("--backend", RELU6, *SMALL, "--expectations", str(gaps), "--report", str(tmp_path / "r.json"),
                     cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "xfail" in result.stdout and not (tmp_path / "conform-repro").exists()
    cells = json.loads((tmp_path / "r.json").read_text())["cells"].values()
    # the entry's kind is said with its reason, as the plugin's xfail said it on main
    assert {c["status"] for c in cells} == {"xfail"}
    assert all(c["messages"][0] == "expected (bug): clips at 5" and c["expected"] == "clips at 5" for c in cells)


def test_a_reader_that_goes_away_ends_conform_with_0(tmp_path: Path) -> None:
    """`conform ... | head -3` (docs/limits.md promises exit 0)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    process = subprocess.Popen([sys.executable, "-m", "conformance.cli", "--backend", "reference", "--op", "Relu,Abs",
                                "--max-examples", "2", "--report", str(tmp_path / "r.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # as `head -1` does once it has its line
    errors = process.stderr.read().decode()
    assert process.wait(timeout=600) == 0 and "Traceback" not in errors, errors
    data = json.loads((tmp_path / "r.json").read_text())  # the report says how far it went
    assert data["complete"] or data["stopped"] == "stdout closed", data.get("stopped")


def test_a_huge_wrong_answer_is_judged_in_the_worker(tmp_path: Path) -> None:
    """A 512 MB answer of the wrong shape stays in the backend's process: the failure says its shape and size (it
    used to cross the pipe whole, seconds per case)."""
    result, data = run_and_report(tmp_path, f"{WRONG}.answers_half_a_gigabyte", "--op", "Relu", "--domain",
                                  "ai.onnx", "--max-examples", "2")
    assert result.returncode == 1
    failed = [c for c in data["cells"].values() if c["status"] == "fail"]
    assert failed and all(c["op"] == "Relu" for c in failed)
    assert all("has shape [8192, 8192] (float64, 512 MB, not sent from the backend's process)" in c["messages"][0]
               for c in failed), failed[0]["messages"]
