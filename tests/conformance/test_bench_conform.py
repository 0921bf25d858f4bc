"""bench/conform.py calls two runs' results the same only when every cell's status, outcomes, case counts and worst
errors are: a changed draw shows in the errors even when every cell still passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.conform import differences


def _report(path: Path, cells: dict[str, dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"backend": "reference", "cells": cells}), encoding="utf-8")
    return path


def _cell(**changes: Any) -> dict[str, Any]:
    return {"status": "pass", "outcomes": {"pass": 1}, "examples": 25, "unsupported_draws": 0, "max_abs": 0.5,
            "max_rel": 0.1, "max_ulp": 2.0, "messages": [], **changes}


def test_the_same_results_differ_in_nothing_but_what_a_run_does_not_decide(tmp_path: Path) -> None:
    a = _report(tmp_path / "a.json", {"ai.onnx@14::Relu[float]": _cell()})
    b = _report(tmp_path / "b.json", {"ai.onnx@14::Relu[float]": _cell(messages=["other words"])})
    assert differences(a, b) == []


def test_a_changed_worst_error_or_a_missing_cell_is_a_difference(tmp_path: Path) -> None:
    a = _report(tmp_path / "a.json", {"ai.onnx@14::Relu[float]": _cell(), "ai.onnx@14::Relu[double]": _cell()})
    b = _report(tmp_path / "b.json", {"ai.onnx@14::Relu[float]": _cell(max_ulp=3.0)})
    found = differences(a, b)
    assert found == [f"ai.onnx@14::Relu[double]: only in {a}", "ai.onnx@14::Relu[float]: max_ulp 2.0 -> 3.0"]
