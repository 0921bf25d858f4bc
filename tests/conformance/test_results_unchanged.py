"""Conformance results unchanged by speed work: a sixteenth of the registry's cells, run now with the committed
report's settings (reference backend, seed 0, 25 examples per cell), gives every cell the status, test outcomes and
case counts of `docs/reports/reference.json`, and its worst errors.

The cells are compared as `bench/conform.py` compares two runs, except that the worst errors count as zero or not,
and within a factor of two otherwise: the few non-zero ones (28 of about 7,000 cells) are a kernel's distance from
an example's stated output, a ULP or two, which a CPU with other vector instructions may round differently. When a
change means to alter results, re-run the report (FIX below)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.conform import cell_changes, cells
from tests.helpers.conform_cli import ROOT, conform

COMMITTED = ROOT / "docs" / "reports" / "reference.json"
SHARD = "3/16"  # 417 cells of every domain, random ops among them (RandomUniform, Multinomial, BitmaskBiasDropout)
ERROR_FACTOR = 2.0
FIX = "conform --backend reference -n 2 --report docs/reports/reference.json && gen docs"


def differences(now: dict[str, Any], committed: dict[str, Any]) -> list[str]:
    """One line per cell of `now` whose results differ from the committed report's (or that it lacks)."""
    lines = []
    for label, cell in sorted(now.items()):
        if label not in committed:
            lines.append(f"{label}: not in the committed report")
            continue
        changed = cell_changes(committed[label], cell, error_factor=ERROR_FACTOR)
        if changed:
            lines.append(f"{label}: {'; '.join(changed)}")
    return lines


def test_a_changed_cell_is_a_difference_and_a_rounding_is_not() -> None:
    label = "ai.onnx@14::Relu[float]"
    cell = {"status": "pass", "outcomes": {"pass": 1}, "examples": 25, "unsupported_draws": 0, "max_abs": 0.0,
            "max_rel": 0.0, "max_ulp": 2.0}
    committed = {label: cell}
    assert differences({label: dict(cell, max_ulp=3.0)}, committed) == []
    assert differences({label: dict(cell, max_ulp=5.0)}, committed) == [f"{label}: max_ulp 2.0 -> 5.0"]
    assert differences({label: dict(cell, examples=24)}, committed) == [f"{label}: examples 25 -> 24"]
    assert differences({label: dict(cell, max_abs=0.5)}, committed) == [f"{label}: max_abs 0.0 -> 0.5"]
    assert differences({label: dict(cell, status="fail")}, committed) == [f'{label}: status "pass" -> "fail"']
    assert differences({"ai.onnx@14::Gelu[float]": {}}, committed) == [
        "ai.onnx@14::Gelu[float]: not in the committed report"]


@pytest.mark.slow
def test_a_shard_of_the_registry_gives_the_committed_reference_results(tmp_path: Path) -> None:
    report = tmp_path / "shard.json"
    result = conform("--backend", "reference", "--shard", SHARD, "--report", str(report))
    assert report.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    now = cells(report)
    assert len(now) > 300
    found = differences(now, cells(COMMITTED))
    assert not found, f"{len(found)} cells differ from {COMMITTED.name} (if meant, run `{FIX}`):\n" + "\n".join(
        found[:40])
