"""What the packaging tests share: the sources a build copies, and running a command in a clean environment."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "constraints.txt", "opset", "gen", "conformance",
           "schemas", "docs/reports")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "_registry")


def clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OPSET_SCHEMAS", "VIRTUAL_ENV")}
    env["OPSET_CACHE_DIR"] = str(tmp / "cache")
    return env


def run(args: list[str], *, cwd: Path, env: dict[str, str] | None = None, code: int = 0) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == code, f"{' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout
