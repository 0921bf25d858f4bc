"""`opset validate`: exit codes, text and JSON output, unreadable files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import onnx
import pytest

from opset.cli import main
from tests.validate.corpus import CASES, CLEAN


def _save(tmp_path: Path, m: onnx.ModelProto, name: str = "m.onnx") -> str:
    path = tmp_path / name
    onnx.save(m, str(path))
    return str(path)


def test_clean_model_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build, _ = CLEAN["fastgelu"]
    assert main(["validate", _save(tmp_path, build())]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


def test_warnings_only_exit_0(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "unused_initializer")
    assert main(["validate", _save(tmp_path, case.build())]) == 0


def test_errors_exit_1_with_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = next(c for c in CASES if c.name == "fastgelu_three_inputs")
    assert main(["validate", _save(tmp_path, case.build())]) == 1
    out = capsys.readouterr().out
    assert "error [arity] node 0 'fastgelu0' (com.microsoft@1::FastGelu)" in out


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = next(c for c in CASES if c.name == "add_float_int64")
    assert main(["validate", _save(tmp_path, case.build()), "--json"]) == 1
    blob = json.loads(capsys.readouterr().out)
    assert blob["errors"] >= 1
    d = blob["diagnostics"][0]
    assert {"severity", "check", "message", "node_index", "node_name", "op", "graph"} <= set(d)
    assert d["check"] == "type_mismatch" and d["op"] == "ai.onnx@14::Add"


def test_profile_option(tmp_path: Path) -> None:
    build, profile = CLEAN["relu6_seed000"]
    path = _save(tmp_path, build())
    assert main(["validate", path]) == 1
    assert main(["validate", path, "--profile", str(profile)]) == 0


@pytest.mark.parametrize("content", [b"", b"\x00\x01garbage" * 3, os.urandom(4096), b"\x08\x07"],
                         ids=["empty", "garbage", "random", "no_graph"])
def test_not_a_model_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    path = tmp_path / "bad.onnx"
    path.write_bytes(content)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not an ONNX model" in err and "Traceback" not in err


def test_truncated_model_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build, _ = CLEAN["dense_seed000"]
    blob = build().SerializeToString()
    path = tmp_path / "cut.onnx"
    path.write_bytes(blob[: len(blob) // 2])
    assert main(["validate", str(path)]) == 2
    assert "error: " in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "absent.onnx")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_external_data(tmp_path: Path) -> None:
    from tests.validate.corpus import F, model, node, tensor

    w = onnx.numpy_helper.from_array(np.ones((3, 4), np.float32), "W")
    m = model([node("Dense", ["X", "W"], ["Y"])], [tensor("X", F, [2, 3])], [tensor("Y", F, [2, 4])],
              inits=[w], opsets={"": 7})
    path = tmp_path / "ext.onnx"
    onnx.save(m, str(path), save_as_external_data=True, all_tensors_to_one_file=True, location="ext.bin",
              size_threshold=0)
    assert (tmp_path / "ext.bin").exists()
    assert main(["validate", str(path), "--profile", "seed000"]) == 0
    (tmp_path / "ext.bin").unlink()
    assert main(["validate", str(path), "--profile", "seed000"]) == 2
