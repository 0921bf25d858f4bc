"""mypy --strict on a user's script sees the op functions' types (py.typed): each deliberate mistake is reported at
its line, and the correct script passes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "data" / "typing"


def _mypy(script: Path, tmp_path: Path) -> list[tuple[int, str]]:
    """(line, error code) of every error mypy --strict reports in `script`, run as a user would, outside the
    project (its config not read) with the package on MYPYPATH and imported modules not reported on."""
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                             "--no-incremental", "--cache-dir", os.devnull, str(script)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    found = re.findall(rf"^{re.escape(str(script))}:(\d+): error: .*\[([a-z-]+)\]$", result.stdout, re.MULTILINE)
    if result.returncode not in (0, 1) or (result.returncode == 1 and not found):
        pytest.fail(f"mypy did not run: {result.stdout}{result.stderr}")
    return sorted({(int(line), code) for line, code in found})


def test_the_package_is_marked_typed() -> None:
    assert (ROOT / "opset" / "py.typed").is_file()


def test_each_deliberate_mistake_is_reported(tmp_path: Path) -> None:
    script = SCRIPTS / "mistakes.py"
    expected = [(n, m.group(1)) for n, text in enumerate(script.read_text(encoding="utf-8").splitlines(), 1)
                if (m := re.search(r"# mypy: ([a-z-]+)$", text))]
    assert len(expected) >= 4
    got = _mypy(script, tmp_path)
    missed = [e for e in expected if e not in got]
    assert missed == [], f"mypy did not report {missed}; it reported {got}"
    assert {line for line, _ in got} == {line for line, _ in expected}  # nothing on the correct lines


def test_the_correct_script_passes(tmp_path: Path) -> None:
    assert _mypy(SCRIPTS / "correct.py", tmp_path) == []
