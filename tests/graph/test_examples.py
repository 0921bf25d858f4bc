"""The model-building examples of the README and of docs/building-models.md run as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          check=False)


def test_readme_example_builds_validates_and_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- example-build -->\n```python\n(.*?)```", readme, re.S)
    assert block, "the README lost its model-building example"
    # the example ends by comparing onnxruntime's output with eager mode's: a mismatch raises
    proc = _run(block.group(1), tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"Value\('AveragePool#\d+:Y': tensor\(float\) \[N, 8, 29, 29\]\)", proc.stdout), proc.stdout


def test_building_models_page_runs(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "building-models.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) >= 3
    checks = "\nassert y.shape == (1, 8, 30, 30), y.shape\nassert model.graph.output[0].name == 'scores'\n"
    proc = _run("\n".join(blocks) + checks, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "('N', 64, 112, 112)" in proc.stdout
