"""A backend is known by what it says it is: its expectations follow it, and `conform --backend
onnxruntime.backend` (onnx's Backend API over onnxruntime) runs unchanged, giving what `--backend onnxruntime`
gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.backends.onnx_backend import onnx_backend_name
from conformance.backends.resolve import backend_identity
from tests.helpers.conform_cli import ROOT

pytest.importorskip("onnxruntime")


@pytest.mark.parametrize(("spec", "identity"), [
    ("reference", "reference"), ("onnxruntime", "onnxruntime"), ("onnx-reference", "onnx-reference"),
    ("onnxruntime.backend", "onnxruntime"),
    # a backend that states no name is known by how it was named
    ("tests.conformance.wrong_backends.relu6_clips_at_5", "tests.conformance.wrong_backends.relu6_clips_at_5"),
])
def test_a_backend_is_known_by_its_identity(spec: str, identity: str) -> None:
    assert backend_identity(spec) == identity


def test_an_onnx_backend_that_names_itself_is_known_by_that_name() -> None:
    class Named:
        name = "myruntime"

    assert onnx_backend_name(Named()) == "myruntime"
    assert onnx_backend_name(Named) == "myruntime"


def _statuses(tmp_path: Path, backend: str, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Each cell's report entry from `conform --backend backend ARGS` (which must exit 0)."""
    report = tmp_path / f"{backend}.json"
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **(env or {}))
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "--backend", backend, "--report", str(report),
                             *args], capture_output=True, text=True, env=environ, cwd=ROOT, timeout=600)
    assert report.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    data = json.loads(report.read_text())
    assert result.returncode == 0, result.stdout[-3000:]
    return dict(data["cells"])


def test_onnxruntime_backend_runs_with_onnxruntime_expectations(tmp_path: Path) -> None:
    """The README's promise: no model is refused by the Backend API's checker, and onnxruntime's known gaps
    (conformance/expectations/onnxruntime.yaml: Relu@1 on float16) apply without --expectations."""
    cells = _statuses(tmp_path, "onnxruntime.backend", "--op", "Relu", "--max-examples", "3")
    assert cells["ai.onnx@1::Relu[float16]"]["status"] == "xfail"
    assert not [k for k, c in cells.items() if c["status"] == "fail"]
    assert cells["ai.onnx@14::Relu[float]"]["status"] == "pass"
    assert cells["ai.onnx@14::Relu[float]"]["examples"] >= 3


@pytest.mark.slow
def test_onnxruntime_backend_and_onnxruntime_give_the_same_statuses(tmp_path: Path) -> None:
    """Same ops, same seed: the same status for every cell, except the contrib-domain cells onnxruntime.backend
    declines by default (it runs released onnx opsets only unless ALLOW_RELEASED_ONNX_OPSET_ONLY=0), which are
    unsupported with that reason; with that variable set, every cell agrees."""
    args = ("--op", "Relu,Add,Conv,Gemm,Softmax", "--max-examples", "3", "-n", "2")
    direct = _statuses(tmp_path / "direct", "onnxruntime", *args)
    through_api = _statuses(tmp_path / "api", "onnxruntime.backend", *args)
    assert direct.keys() == through_api.keys()
    differ = {k for k in direct if direct[k]["status"] != through_api[k]["status"]}
    assert all(not k.startswith("ai.onnx") for k in differ)
    for key in differ:
        assert through_api[key]["status"] == "unsupported", key
        assert "only released onnx opsets" in through_api[key]["messages"][0], key
    unreleased = _statuses(tmp_path / "all", "onnxruntime.backend", *args, env={"ALLOW_RELEASED_ONNX_OPSET_ONLY": "0"})
    assert {k: c["status"] for k, c in unreleased.items()} == {k: c["status"] for k, c in direct.items()}
