"""SIGINT and SIGTERM stop conform, `conform export` and `conform merge` (issue 27): every process they started
ends, the report (the manifest) keeps what was done marked incomplete, the exit status is 130 / 143."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.conform_cli import ROOT
from tests.helpers.processes import descendants, survivors

RELU6 = "tests.conformance.wrong_backends.relu6_clips_at_5"
WAIT = 600  # seconds a stopped conform may take before the test calls it hung (a loaded CI machine is slow)


def start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-m", "conformance.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)


def wait_for(path: Path, process: subprocess.Popen[str], test: str = "cells") -> None:
    """Until `path` is a JSON file whose `test` key is not empty (the run has done something)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if json.loads(path.read_text())[test]:
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"{path} never showed {test}: {process.poll()}")


def stop(process: subprocess.Popen[str], signum: int) -> tuple[int, str, str, dict[int, str]]:
    """Signal `process`; its exit status, stdout, stderr, and every process it had started that is still alive."""
    started = descendants(process.pid)
    process.send_signal(signum)
    out, err = process.communicate(timeout=WAIT)
    return process.returncode, out, err, survivors(started)


@pytest.mark.parametrize(("signum", "workers", "backend"), [
    (signal.SIGINT, "0", "reference"),
    (signal.SIGTERM, "2", RELU6),  # worker processes, each with its backend's isolation worker
])
def test_a_signal_stops_conform_ends_its_children_and_keeps_an_incomplete_report(
        tmp_path: Path, signum: int, workers: str, backend: str) -> None:
    report = tmp_path / "r.json"
    process = start(tmp_path, "--backend", backend, "--domain", "ai.onnx", "--max-examples", "3", "-n", workers,
                    "--report", str(report))
    wait_for(report, process)
    code, out, err, alive = stop(process, signum)
    assert code == 128 + signum, out[-2000:] + err[-2000:]
    assert not alive, alive
    data = json.loads(report.read_text())
    assert data["complete"] is False and data["stopped"] == signal.Signals(signum).name
    planned, done = data["planned"], len(data["cells"])
    assert 0 < done < planned
    assert f"conform: interrupted after {done} of {planned} cells ({signal.Signals(signum).name})" in err
    assert "Traceback" not in err, err


def test_a_signal_stops_an_export_whose_manifest_lists_what_was_written(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    process = start(tmp_path, "export", str(corpus), "--domain", "ai.onnx", "--draws", "1", "-j", "2")
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and len(list(corpus.glob("test_*"))) < 20:
        time.sleep(0.2)
    code, _, err, alive = stop(process, signal.SIGTERM)
    assert code == 143 and not alive, (err[-2000:], alive)
    manifest = json.loads((corpus / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["cases"]
    assert all((corpus / c["name"] / "model.onnx").is_file() for c in manifest["cases"])
    assert "conform export: interrupted after" in err and "Traceback" not in err


def test_a_signal_during_a_merge_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.runner import merge
    from conformance.signals import Interrupted

    def interrupted(path: Path) -> dict[str, object]:
        raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr(merge, "_read", interrupted)
    out = tmp_path / "all.json"
    code = merge.run(argparse.Namespace(reports=[tmp_path / "a.json"], report=out, junit=None))
    assert code == 143 and not out.exists()
    assert "conform merge: interrupted (SIGTERM)" in capsys.readouterr().err


class _SignalsWhenCollected:
    def __del__(self) -> None:  # where Python cannot raise: the signal handler's Interrupted would be lost
        signal.raise_signal(signal.SIGTERM)


def test_a_signal_landing_where_python_cannot_raise_is_kept_for_the_next_safe_point(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A signal handled inside a garbage-collector callback or a `__del__` (Hypothesis runs one on every
    collection) is not lost and prints no "Exception ignored" traceback: the run raises it between two cells."""
    from conformance.signals import Interrupted, interrupt_if_pending, stopping_on_signals

    with stopping_on_signals():
        _SignalsWhenCollected()  # collected at once, the handler runs inside __del__
        with pytest.raises(Interrupted) as stopped:
            interrupt_if_pending()
        interrupt_if_pending()  # raised once: the next safe point goes on
    assert stopped.value.signum == signal.SIGTERM
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_signal_whose_interrupt_a_library_swallows_is_raised_at_the_next_safe_point() -> None:
    """pytest's unraisable hook (an in-process cell) or a library's `except BaseException` takes the Interrupted:
    the handler kept it, so the run still stops between two cells."""
    from conformance.signals import Interrupted, interrupt_if_pending, stopping_on_signals

    with stopping_on_signals():
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:  # what the library does
            pass
        with pytest.raises(Interrupted) as stopped:
            interrupt_if_pending()
    assert stopped.value.signum == signal.SIGINT
