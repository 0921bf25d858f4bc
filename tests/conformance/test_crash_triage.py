"""After a crash the isolation worker finds out whom to blame: the dying case when it crashes alone, the earlier case
it crashes right after (whose bundle then replays both), or nobody, said in so many words (issue 24: 7 of 14 crash
bundles replayed as "passes now" with no word of why)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.helpers.conform_cli import ROOT, conform, run_and_report

WRONG = ROOT / "tests" / "conformance" / "wrong_backends"


def _replay(bundle: str) -> subprocess.CompletedProcess[str]:
    command = (Path(bundle) / "command.txt").read_text().split()
    return conform(*command[1:])


def test_a_crash_right_after_another_case_blames_it_and_its_bundle_replays_both(tmp_path: Path) -> None:
    backend = str(WRONG / "corrupts_then_crashes.py")
    result, data = run_and_report(tmp_path, backend, "--op", "Neg,Relu", "--domain", "ai.onnx", "--max-examples",
                                  "3", "--timeout", "20")
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    failed = {k: c for k, c in data["cells"].items() if c["status"] == "fail"}
    assert failed and all(c["op"] == "Relu" for c in failed.values()), sorted(failed)
    first = failed[min(failed)]
    message = first["messages"][0]
    assert "died" in message and "run alone in a fresh process this case passes, but it crashes right after an " \
                                  "earlier case" in message and "ai.onnx@13::Neg" in message, message
    meta = json.loads((Path(first["repro"]) / "case.json").read_text())
    assert meta["before"] == ["before_0"]
    assert json.loads((Path(first["repro"]) / "before_0" / "case.json").read_text())["op"] == "Neg"
    again = _replay(first["repro"])
    assert again.returncode == 1 and "died" in again.stderr, again.stdout + again.stderr  # reproduced, not "passes"


def test_a_crash_no_case_causes_alone_says_so(tmp_path: Path) -> None:
    backend = str(WRONG / "crashes_now_and_then.py")
    # Abs at opset 13 alone: 12 cells, a crash every 12th case, each crash triaged in fresh processes
    result, data = run_and_report(tmp_path, backend, "--op", "Abs", "--domain", "ai.onnx", "--opsets", "ai.onnx=13",
                                  "--max-examples", "2", "--timeout", "20")
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    failed = [c for c in data["cells"].values() if c["status"] == "fail"]
    assert failed
    assert all("the crash does not reproduce alone: this case passes when run alone in a fresh process, nor right "
               "after any of the" in c["messages"][0] for c in failed), [c["messages"] for c in failed]
    assert "does not reproduce alone" in result.stdout  # the summary's FAIL line says it too
