"""Running the `conform` command in a subprocess, as a user types it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def conform(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`conform ARGS` run from `cwd` (default: the checkout), stdout and stderr captured (so not a terminal)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd or ROOT, timeout=600)
