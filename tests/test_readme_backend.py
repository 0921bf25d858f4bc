"""The example backend in the README works as documented (the docs cannot rot silently)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_example_backend_runs_under_conform(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- example-backend -->\n```python\n(.*?)```", readme, re.S)
    assert block, "the README lost its example backend"
    backend = tmp_path / "mybackend.py"
    backend.write_text(block.group(1))
    proc = subprocess.run([sys.executable, "-m", "conformance.cli", "--backend", str(backend), "--op", "Relu",
                           "--op", "Add", "--domain", "ai.onnx", "--max-examples", "5",
                           "--report", str(tmp_path / "r.json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "ai.onnx::Relu" in out and "ai.onnx::Add" in out
    assert "Traceback" not in out
