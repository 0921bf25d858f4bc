"""`conform --suite onnx-node`: onnx's node suite on the reference backend (every case of an op the registry
holds passes; every other case is unsupported with the reason that names the issue bringing it), and a wrong
backend is caught by the suite's cases too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def conform(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    report = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "--suite", "onnx-node", "--report", str(report),
                             "--repro-dir", str(tmp_path / "repro"), *args], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=1500)
    assert report.is_file(), result.stdout[-3000:] + result.stderr[-3000:]
    return result, json.loads(report.read_text())


@pytest.mark.slow
def test_the_reference_passes_every_case_it_covers(tmp_path: Path) -> None:
    result, data = conform(tmp_path, "--backend", "reference", "-n", "2")
    cells = data["cells"].values()
    failed = [f"{c['op']}@{c['version']}[{c['dtype']}]: {c['messages'][:1]}" for c in cells if c["status"] == "fail"]
    assert not failed, "\n".join(failed[:40])
    unsupported = [f"{c['op']}@{c['version']}: {c['messages'][:1]}" for c in cells if c["status"] == "unsupported"]
    assert not unsupported, "\n".join(unsupported[:40])
    assert result.returncode == 0, result.stdout[-3000:]


def test_a_wrong_backend_fails_the_suite_cases_of_its_op(tmp_path: Path) -> None:
    backend = "tests.conformance.wrong_backends.avgpool_ignores_count_include_pad"
    result, data = conform(tmp_path, "--backend", backend, "--op", "AveragePool")
    assert result.returncode == 1, result.stdout[-3000:]
    failed = [k for k, c in data["cells"].items() if c["status"] == "fail"]
    assert failed and all("AveragePool" in k for k in failed)
    bundle = next(c["repro"] for c in data["cells"].values() if c["status"] == "fail")
    assert (Path(bundle) / "model.onnx").is_file() and "--suite onnx-node" in (Path(bundle) / "command.txt").read_text()
