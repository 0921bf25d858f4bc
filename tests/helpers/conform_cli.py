"""Running the `conform` command in a subprocess, as a user types it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def conform(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`conform ARGS` run from `cwd` (default: the checkout), stdout and stderr captured (so not a terminal)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd or ROOT, timeout=600)


def run_and_report(tmp_path: Path, backend: str, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """`conform --backend BACKEND ARGS` with a report and repro bundles in `tmp_path`, 10 examples a cell: the run
    and its JSON report."""
    report = tmp_path / "report.json"
    result = conform("--backend", backend, "--report", str(report), "--repro-dir", str(tmp_path / "repro"),
                     "--max-examples", "10", *args)
    assert report.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    return result, json.loads(report.read_text())


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under `root` (its path relative to `root`, posix) -> its bytes: two exports compared byte for byte."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
