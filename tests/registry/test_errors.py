"""The broken-registry corpus: one located message per mistake, exit 1, no traceback (golden)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from opset.lint import lint

ROOT = Path(__file__).resolve().parents[2]
BROKEN = Path("tests/data/broken_registry")
GOLDEN = ROOT / "tests/data/broken_registry.golden"


def test_every_broken_file_gives_exactly_one_located_message() -> None:
    problems, _ = lint([BROKEN])
    files = sorted(str(p) for p in BROKEN.rglob("*.yaml"))
    assert len(files) >= 25
    by_file: dict[str, list[str]] = {}
    for p in problems:
        by_file.setdefault(p.file, []).append(str(p))
    assert sorted(by_file) == files, "a broken file gave no message, or a good file gave one"
    many = {f: msgs for f, msgs in by_file.items() if len(msgs) != 1}
    assert not many, f"more than one message for a single mistake: {many}"
    assert all(p.line is not None for p in problems), "every message names its line"


def test_messages_match_golden() -> None:
    problems, _ = lint([BROKEN])
    text = "\n".join(str(p) for p in problems) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "messages changed: rerun with UPDATE_GOLDEN=1 and review the diff"


def test_lint_cli_exits_1_without_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "opset.cli", "lint", str(BROKEN)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "YamlSyntax.yaml:15: YAML syntax error" in proc.stdout


def test_lint_is_clean_on_the_repository() -> None:
    proc = subprocess.run([sys.executable, "-m", "opset.cli", "lint"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
