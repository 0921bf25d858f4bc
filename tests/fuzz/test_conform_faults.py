"""`conform` (and `conform export`, `conform merge`) under faults: signals at random moments, read-only and full
outputs. A stopped run exits 130 or 143 and leaves no process it started and no report that says it is complete;
an output it cannot write is one line and exit 2 (found before the run) or 1 (during it), never a traceback."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.conform_cli import ROOT
from tests.helpers.folders import full_folder, read_only_folder
from tests.helpers.fuzz import SCALE, SEED
from tests.helpers.processes import descendants, survivors

pytestmark = pytest.mark.fuzz

RELU6 = "tests.conformance.wrong_backends.relu6_clips_at_5"
WAIT = 600


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-m", "conformance.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)


@pytest.mark.timeout(round(1800 * max(1.0, SCALE)))
def test_signals_at_random_moments_stop_conform_cleanly(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    for trial in range(max(1, round(4 * SCALE))):
        work = tmp_path / f"t{trial}"
        work.mkdir()
        signum = rng.choice([signal.SIGINT, signal.SIGTERM])
        workers = rng.choice(["0", "2"])
        backend = rng.choice(["reference", RELU6])
        report = work / "r.json"
        process = _start(work, "--backend", backend, "--domain", "ai.onnx", "--max-examples", "2", "-n", workers,
                         "--report", str(report))
        deadline = time.monotonic() + WAIT
        while not report.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # the run has begun (its handlers are set) once it wrote its first cell
        time.sleep(rng.uniform(0.0, 3.0))  # then: while a cell runs, a worker starts, the report is written ...
        started = descendants(process.pid)
        process.send_signal(signum)
        _, err = process.communicate(timeout=WAIT)
        what = f"trial {trial}: {signal.Signals(signum).name}, -n {workers}, {backend}"
        assert process.returncode in (0, 1, 128 + signum), f"{what}: exit {process.returncode}\n{err[-2000:]}"
        assert "Traceback" not in err, f"{what}\n{err[-3000:]}"
        assert not survivors(started), f"{what}: {survivors(started)}"
        data = json.loads(report.read_text())
        if process.returncode == 128 + signum:
            assert data["complete"] is False and data["stopped"] == signal.Signals(signum).name, what
            assert len(data["cells"]) < data["planned"], what
        else:  # it had finished before the signal came
            assert data["complete"] is True, what


@pytest.mark.parametrize("fault", ["read-only", "full"])
@pytest.mark.parametrize("target", ["--report", "--junit", "--repro-dir", "export", "merge"])
def test_outputs_that_refuse_writes_are_one_line(tmp_path: Path, fault: str, target: str) -> None:
    """Each output of conform in a read-only folder (a usage error, before any work) or a full one (found when it
    is written: exit 1, what was written before is kept)."""
    merged_input = tmp_path / "in.json"
    merged_input.write_text(json.dumps({"backend": "reference", "started": 1.0, "complete": True,
                                        "unmatched_expectations": [], "cells": {"x": {
                                            "domain": "ai.onnx", "op": "Relu", "version": 14, "dtype": "float",
                                            "status": "pass", "messages": ["m" * 50_000]}}}))
    place = read_only_folder if fault == "read-only" else full_folder
    with place(tmp_path / "out") as out:
        if fault == "full":  # almost full: what conform checks before the run still fits, what it writes does not
            (out / "filler").write_bytes(b"\0" * 16 * 1024)
        if target == "export":
            args: tuple[str, ...] = ("export", str(out / "corpus"), "--op", "Relu", "--draws", "2")
        elif target == "merge":
            args = ("merge", str(merged_input), "--report", str(out / "m.json"))
        else:
            args = ("--backend", RELU6, "--op", "Relu6", "--max-examples", "3", target, str(out / "o"))
        process = _start(tmp_path, *args)
        _, err = process.communicate(timeout=WAIT)
    assert process.returncode == (2 if fault == "read-only" else 1), f"{target} {fault}: {process.returncode} {err}"
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
