"""`opset validate --backend-report`: the nodes whose conformance cell a backend's report records as failing,
unsupported or expected to fail (errors, exit 1), or as following another reading, or does not hold (warnings); the
same from Python; the built-in reports by name."""

from __future__ import annotations

import json
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from opset.validate import check_model
from opset.validate.backend_report import (
    ReportError,
    backend_diagnostics,
    known_reports,
    load_backend_report,
)
from opset.validate.cli import main_validate

F = TensorProto.FLOAT


def _model() -> onnx.ModelProto:
    """x -> Relu -> Abs -> Neg -> Exp -> Sigmoid -> Floor -> If(c; then: Tanh, else: Identity) -> y, float, opset
    13."""
    x, c = helper.make_tensor_value_info("x", F, [2, 3]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])
    then = helper.make_graph([helper.make_node("Tanh", ["s"], ["t"], name="inner")], "then", [],
                             [helper.make_tensor_value_info("t", F, [2, 3])])
    other = helper.make_graph([helper.make_node("Identity", ["s"], ["u"], name="same")], "else", [],
                              [helper.make_tensor_value_info("u", F, [2, 3])])
    nodes = [helper.make_node(op, [a], [b], name=op.lower()) for op, a, b in
             [("Relu", "x", "r"), ("Abs", "r", "a"), ("Neg", "a", "n"), ("Exp", "n", "e"), ("Sigmoid", "e", "s"),
              ("Floor", "s", "f")]]
    nodes.append(helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other, name="choose"))
    graph = helper.make_graph(nodes, "g", [x, c], [helper.make_tensor_value_info("y", F, [2, 3]),
                                                   helper.make_tensor_value_info("f", F, [2, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _report(tmp_path: Path) -> Path:
    cells = {
        "ai.onnx@13::Relu[float]": {"status": "fail", "messages": ["relu is off by one\nsecond line"]},
        "ai.onnx@13::Abs[float]": {"status": "xfail", "messages": ["expected: a known gap"]},
        "ai.onnx@13::Neg[float]": {"status": "unsupported", "messages": []},
        "ai.onnx@13::Exp[float]": {"status": "ambiguous", "messages": ["a reading"]},
        "ai.onnx@13::Sigmoid[float]": {"status": "pass", "messages": []},
        "ai.onnx@13::Tanh[float]": {"status": "fail", "messages": ["tanh overflows"]},
        "ai.onnx@13::If[bool]": {"status": "pass", "messages": []},
        "ai.onnx@13::Identity[float]": {"status": "pass", "messages": []},
    }
    path = tmp_path / "mybackend.json"
    path.write_text(json.dumps({"backend": "mybackend", "cells": cells}), encoding="utf-8")
    return path


def test_every_marked_node_says_its_cell_and_the_reports_reason(tmp_path: Path) -> None:
    found = [(d.severity, d.check, d.node_name, d.op, d.graph, d.message)
             for d in backend_diagnostics(_model(), str(_report(tmp_path)))]
    assert found == [
        ("error", "backend_fails", "relu", "ai.onnx@13::Relu[float]", "",
         "mybackend fails cases of this cell: relu is off by one\\nsecond line"),  # (one line, escaped)
        ("warning", "backend_xfail", "abs", "ai.onnx@13::Abs[float]", "",
         "mybackend is known to fail some cases of this cell (an expected gap): expected: a known gap"),
        ("error", "backend_unsupported", "neg", "ai.onnx@13::Neg[float]", "", "mybackend cannot run this cell"),
        ("warning", "backend_ambiguous", "exp", "ai.onnx@13::Exp[float]", "",
         "mybackend follows another reading of the op in cases of this cell: a reading"),
        ("warning", "backend_untested", "floor", "ai.onnx@13::Floor[float]", "",
         "mybackend's report has no cell for it"),
        ("error", "backend_fails", "inner", "ai.onnx@13::Tanh[float]", "choose.then_branch",
         "mybackend fails cases of this cell: tanh overflows"),
    ]


def test_the_command_marks_them_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    assert main_validate([str(model)]) == 0
    assert main_validate([str(model), "--backend-report", str(_report(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert "error [backend_fails] node 0 'relu' (ai.onnx@13::Relu[float]): mybackend fails" in out
    assert out.strip().endswith("3 error(s), 3 warning(s)")
    assert main_validate([str(model), "--backend-report", str(_report(tmp_path)), "--json"]) == 1
    checks = [d["check"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert checks.count("backend_fails") == 2


def test_a_clean_report_leaves_exit_0(tmp_path: Path) -> None:
    path = _report(tmp_path)
    data = json.loads(path.read_text())
    for cell in data["cells"].values():
        cell["status"] = "pass"
    data["cells"]["ai.onnx@13::Floor[float]"] = {"status": "pass"}
    path.write_text(json.dumps(data))
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    assert main_validate([str(model), "--backend-report", str(path)]) == 0


def test_a_bad_report_is_a_one_line_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    (tmp_path / "bad.json").write_text("[1, 2]")
    for report in ("no-such-backend", str(tmp_path / "bad.json")):
        assert main_validate([str(model), "--backend-report", report]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err
    with pytest.raises(ReportError, match=r"built-in: .*onnxruntime"):
        load_backend_report("no-such-backend")


def test_the_built_in_reports_are_found_by_their_backends_name() -> None:
    assert {"onnxruntime", "reference", "onnx-reference"} <= set(known_reports())
    report = load_backend_report("onnxruntime")
    assert report.backend == "onnxruntime" and report.cells["ai.onnx@14::Relu[float]"].status == "pass"


def test_the_profile_resolves_nodes_as_the_validator_does(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", F, [1, 3, 2, 2])
    model = helper.make_model(helper.make_graph([helper.make_node("Affine", ["x"], ["y"], alpha=2.0, beta=0.0)], "g",
                                                [x], [helper.make_tensor_value_info("y", F, [1, 3, 2, 2])]),
                              opset_imports=[helper.make_opsetid("", 9)])
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"backend": "b", "cells": {"ai.onnx.ort@1::Affine[float]": {"status": "fail"}}}))
    assert backend_diagnostics(model, str(path)) == []  # an unknown op under the default profile: not a cell
    assert [d.op for d in backend_diagnostics(model, str(path), "onnxruntime")] == ["ai.onnx.ort@1::Affine[float]"]
    assert check_model(model, "onnxruntime").diagnostics == []
