"""Conformance results unchanged by speed work: a sixteenth of the registry's cells, run now with the committed
report's settings (reference backend, seed 0, 25 examples per cell), gives every cell the status, test outcomes and
case counts of `docs/reports/reference.json`, and its worst errors.

The worst errors are compared as zero or not, and within a factor of two otherwise: the few non-zero ones (28 of
about 7,000 cells) are a kernel's distance from an example's stated output, a ULP or two, which a CPU with other
vector instructions may round differently. When a change means to alter results, re-run the report:
`conform --backend reference -n 2 --report docs/reports/reference.json`, then `gen docs`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.conform_cli import ROOT, conform

COMMITTED = ROOT / "docs" / "reports" / "reference.json"
SHARD = "3/16"  # 417 cells of every domain, random ops among them (RandomUniform, Multinomial, BitmaskBiasDropout)
EXACT = ("status", "outcomes", "examples", "unsupported_draws")
ERRORS = ("max_abs", "max_rel", "max_ulp")
FIX = "conform --backend reference -n 2 --report docs/reports/reference.json && gen docs"


def differences(now: dict[str, Any], committed: dict[str, Any]) -> list[str]:
    """One line per cell of `now` whose results differ from the committed report's."""
    lines = []
    for label, cell in sorted(now.items()):
        before = committed.get(label)
        if before is None:
            lines.append(f"{label}: not in the committed report")
            continue
        changed = [f"{f} {before.get(f)!r} -> {cell.get(f)!r}" for f in EXACT if cell.get(f) != before.get(f)]
        changed += [f"{f} {before.get(f)!r} -> {cell.get(f)!r}" for f in ERRORS
                    if not _near(cell.get(f), before.get(f))]
        if changed:
            lines.append(f"{label}: {'; '.join(changed)}")
    return lines


def _near(a: float | None, b: float | None) -> bool:
    if a is None or b is None or a == 0 or b == 0:
        return a == b
    return math.isclose(a, b, rel_tol=0.5)


def test_a_changed_cell_is_a_difference() -> None:
    committed = {"ai.onnx@14::Relu[float]": {"status": "pass", "outcomes": {"pass": 1}, "examples": 25,
                                             "unsupported_draws": 0, "max_abs": 0.0, "max_rel": 0.0, "max_ulp": 2.0}}
    same = {"ai.onnx@14::Relu[float]": dict(committed["ai.onnx@14::Relu[float]"], max_ulp=3.0)}
    assert differences(same, committed) == []
    fewer = {"ai.onnx@14::Relu[float]": dict(committed["ai.onnx@14::Relu[float]"], examples=24)}
    assert differences(fewer, committed) == ["ai.onnx@14::Relu[float]: examples 25 -> 24"]
    newly_wrong = {"ai.onnx@14::Relu[float]": dict(committed["ai.onnx@14::Relu[float]"], max_abs=0.5)}
    assert differences(newly_wrong, committed) == ["ai.onnx@14::Relu[float]: max_abs 0.0 -> 0.5"]
    assert differences({"ai.onnx@14::Gelu[float]": {}}, committed) == [
        "ai.onnx@14::Gelu[float]: not in the committed report"]


@pytest.mark.slow
def test_a_shard_of_the_registry_gives_the_committed_reference_results(tmp_path: Path) -> None:
    report = tmp_path / "shard.json"
    result = conform("--backend", "reference", "--shard", SHARD, "--report", str(report))
    assert report.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    now = json.loads(report.read_text(encoding="utf-8"))["cells"]
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))["cells"]
    assert len(now) > 300
    found = differences(now, committed)
    assert not found, f"{len(found)} cells differ from {COMMITTED.name} (if meant, run `{FIX}`):\n" + "\n".join(
        found[:40])
