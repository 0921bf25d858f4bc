"""Build step the declarative config in pyproject.toml cannot say: ship the registry (and the committed conformance
reports) inside the wheel.

The registry lives at the top of the repository (`schemas/<domain>/*.yaml`, `schemas/meta/*.schema.json`), outside
every Python package, and its domain folders carry dots (`ai.onnx`), so they cannot be packages. A non-editable
install keeps only what sits in a package, so building copies the registry to `opset/_registry/` in the build tree
(`opset.registry_home` finds it there). An editable install reads `schemas/` of the checkout and copies nothing.
The committed conform reports (docs/reports/*.json, what `opset validate --backend-report NAME` reads) go to
`opset/_reports/`, each cell reduced to its status and first message (the repro paths and error figures stay out).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

REGISTRY = Path(__file__).resolve().parent / "schemas"
PACKAGED_AS = Path("opset", "_registry")  # as opset/registry_home.py's PACKAGED_SCHEMAS
REGISTRY_FILES = ("*.yaml", "*.schema.json")
REPORTS = Path(__file__).resolve().parent / "docs" / "reports"
REPORTS_PACKAGED_AS = Path("opset", "_reports")  # as opset/registry_home.py's PACKAGED_REPORTS


def report_files() -> list[Path]:
    return sorted(REPORTS.glob("*.json")) if REPORTS.is_dir() else []


def compact_report(path: Path) -> str:
    """A conform report with each cell's status and first message only."""
    data = json.loads(path.read_text(encoding="utf-8"))
    cells = {label: {"status": cell.get("status"), "messages": (cell.get("messages") or [])[:1]}
             for label, cell in data.get("cells", {}).items()}
    return json.dumps({"backend": data.get("backend"), "cells": cells}, separators=(",", ":"))


def registry_files() -> list[Path]:
    """Every registry file, relative to `schemas/` (ops, domains, drift exceptions, meta-schemas)."""
    found = {p.relative_to(REGISTRY) for pattern in REGISTRY_FILES for p in REGISTRY.rglob(pattern)}
    if not found:
        raise SystemExit(f"setup.py: no registry files under {REGISTRY} (an sdist must carry schemas/)")
    return sorted(found)


class BuildPyWithRegistry(build_py):
    """build_py, then the registry copied into the built `opset` package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / PACKAGED_AS
        shutil.rmtree(target, ignore_errors=True)  # a file deleted from schemas/ must not survive a rebuild
        for rel in registry_files():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REGISTRY / rel, target / rel)
        reports = Path(self.build_lib) / REPORTS_PACKAGED_AS
        shutil.rmtree(reports, ignore_errors=True)
        for path in report_files():
            reports.mkdir(parents=True, exist_ok=True)
            (reports / path.name).write_text(compact_report(path), encoding="utf-8")

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs: list[str] = super().get_outputs(include_bytecode)
        if not self.editable_mode:
            outputs += [str(Path(self.build_lib) / PACKAGED_AS / rel) for rel in registry_files()]
            outputs += [str(Path(self.build_lib) / REPORTS_PACKAGED_AS / p.name) for p in report_files()]
        return outputs


setup(cmdclass={"build_py": BuildPyWithRegistry})
