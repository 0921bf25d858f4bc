"""`gen docs`: version diffs, opset pages, Tengine layouts, report reading, write-if-changed and --check."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gen.docs import views
from gen.docs.diff import Change, diff_versions
from gen.docs.generator import main
from gen.docs.pages import HEADER, MARKER, render_site, wrap_formula
from gen.docs.reports import ReportError, read_reports
from opset.formula import parse
from opset.load import load_registry
from opset.model import BinaryField, Param, Tengine, TypeConstraint
from opset.registry import Registry
from tests.helpers.folders import read_only_folder


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


@pytest.fixture(scope="module")
def site(registry: Registry) -> dict[str, str]:
    return render_site(registry, [])


def test_averagepool_diffs_follow_seed_004(registry: Registry) -> None:
    op = registry.op("ai.onnx", "AveragePool")
    assert diff_versions(op.version(1), op.version(7))[0] == Change("added", "attribute `count_include_pad`",
                                                                    "int, default `0`")
    assert Change("added", "attribute `ceil_mode`", "int, default `0`") in diff_versions(op.version(7), op.version(10))
    widened = [c for c in diff_versions(op.version(19), op.version(22)) if c.kind == "widened"]
    assert widened == [Change("widened", "type `T`", "types + `tensor(bfloat16)`")]


def test_diff_sees_optional_inputs_defaults_and_narrowed_types(registry: Registry) -> None:
    old = registry.op("ai.onnx", "AveragePool").version(7)
    inputs = (*old.inputs, Param(name="extra", type="T", optional=True))
    attrs = dict(old.attributes, count_include_pad=dataclasses.replace(old.attributes["count_include_pad"], default=1))
    types = {"T": TypeConstraint("T", ("tensor(float)",))}
    new = dataclasses.replace(old, since=8, inputs=inputs, attributes=attrs, type_constraints=types)
    changes = diff_versions(old, new)
    assert Change("added", "input `extra`", "T, optional") in changes
    assert Change("changed", "attribute `count_include_pad`", "default `0` → `1`") in changes
    assert Change("narrowed", "type `T`", "types − `tensor(float16)`, `tensor(double)`") in changes
    turned = dataclasses.replace(new, inputs=(dataclasses.replace(old.inputs[0], optional=True),))
    assert Change("changed", "input `X`", "now optional") in diff_versions(old, turned)
    assert diff_versions(old, old) == []


def test_version_spans(registry: Registry) -> None:
    op = registry.op("ai.onnx", "AveragePool")
    spans = {v.version.since: v.span for v in views.version_views(op, registry.domains["ai.onnx"])}
    assert spans[1] == "1 – 6" and spans[10] == "10" and spans[11] == "11 – 18"
    assert spans[22].endswith("(current)")


def test_opset_changes_name_new_versions(registry: Registry) -> None:
    changes = {c.name: c for c in views.opset_changes(registry, "ai.onnx", 10)}
    assert changes["AveragePool"].kind == "updated"
    assert changes["AveragePool"].previous is not None and changes["AveragePool"].previous.since == 7


def test_layout_offsets_use_natural_alignment(registry: Registry) -> None:
    pooling = registry.op("tengine", "Pooling").versions[-1]
    rows = views.layout_rows(pooling)
    assert [r.offset for r in rows] == [4 * i for i in range(len(rows))]
    assert rows[5].field.name == "global" and rows[5].attribute == "global_pooling"
    mixed = Tengine(op_id=0, category="x", param_struct="S", layout=(
        BinaryField("a", "int8"), BinaryField("b", "int16"), BinaryField("c", "int32"), BinaryField("d", "uint8")))
    assert [r.offset for r in views.layout_rows(dataclasses.replace(pooling, tengine=mixed))] == [0, 2, 4, 8]


def test_averagepool_page_shows_every_version_and_diff(site: dict[str, str]) -> None:
    page = site["ai.onnx/AveragePool.md"]
    for since in (1, 7, 10, 11, 19, 22):
        assert f"## Version {since} {{#v{since}}}" in page
    assert "**Changes from version 1:** adds attribute count_include_pad" in page
    assert "| added | attribute `count_include_pad` | int, default `0` |" in page


def test_tengine_page_shows_op_id_and_layout(site: dict[str, str]) -> None:
    page = site["tengine/Pooling.md"]
    assert "**Tengine** op id **16**" in page
    assert "| 5 | 20 | `global` | int32 | `0` | `global_pooling` |" in page


def test_every_page_carries_the_header(site: dict[str, str]) -> None:
    assert all(text.startswith(HEADER + "\n") for text in site.values())
    assert "ai.onnx/opset-07.md" in site and "tengine/opset-1.md" in site


def test_long_formulas_break_before_else() -> None:
    text = wrap_formula(parse("1 if a else (2 if b else 3) if c else " + "x + " * 30 + "y"))
    assert text.splitlines()[0] == "1 if a"
    assert text.splitlines()[1].startswith("    else (2 if b else 3) if c")


def _report(path: Path, backend: str, records: object) -> None:
    path.write_text(json.dumps({"backend": backend, "records": records}), encoding="utf-8")


def test_reports_missing_folder_gives_no_support_pages(tmp_path: Path) -> None:
    assert read_reports(tmp_path / "absent") == []


def test_reports_render_readable_support_pages(tmp_path: Path, registry: Registry) -> None:
    record = {"domain": "ai.onnx", "op": "Relu", "version": 14, "dtype": "float", "status": "pass"}
    failing = {**record, "dtype": "double", "status": "fail", "messages": [
        "conformance.runner.checks.ConformanceFailure: ai.onnx@14::Relu[double]: output 0 'Y': 1 of 4 values *wrong* "
        f"| repro: conform --backend onnxruntime --replay {tmp_path}/conform-repro/x --timeout 20"]}
    unknown = {**record, "op": "NotAnOp", "status": "unsupported"}
    _report(tmp_path / "ort.json", "onnxruntime", [record, failing, unknown])
    _report(tmp_path / "ref.json", "reference", [record, {**record, "dtype": "double"}])
    pages = render_site(registry, read_reports(tmp_path))
    index = pages["support/index.md"]
    assert "| [onnxruntime](onnxruntime.md) | 2 | 3 | up to 0 | 1/3 pass, **1 fail**, 1 unsup. |" in index  # a row each
    assert "| domain | onnxruntime | reference | \n" in index  # a column per backend, never one per element type
    assert "| [ai.onnx](domain-ai.onnx.md) | 1/3 pass, **1 fail**, 1 unsup. | 2/2 pass | " in index
    domain = pages["support/domain-ai.onnx.md"]
    assert "| [Relu](../ai.onnx/Relu.md#v14) | 14 | 1/2 pass, **1 fail** | 2/2 pass | " in domain
    assert "| NotAnOp | 14 | 0/1 pass, 1 unsup. | — | " in domain  # no link to a page that does not exist
    backend = pages["support/onnxruntime.md"]
    assert ("- [Relu@14](../ai.onnx/Relu.md#v14): `conform --backend onnxruntime --domain ai.onnx --op Relu "
            "--opset 14`\n    - `double`: output 0 'Y': 1 of 4 values \\*wrong\\*\n") in backend
    assert "No cell fails." in pages["support/reference.md"]
    for page in (index, domain, backend):
        assert "|\n\n|" not in page, "a blank line between table rows ends the Markdown table"
        assert str(tmp_path) not in page, "the page names the report by file name, not by machine path"
        assert not any(ord(ch) > 0x2000 and ch not in "—–·≥" for ch in page), "only text: no emoji or symbols"
    relu = pages["ai.onnx/Relu.md"]
    section = relu[relu.index("## Version 14"):relu.index("## Version 13")]
    # a row per element type Relu@14's T allows, in its order; a column per backend that tested the version
    allowed = [t[len("tensor("):-1] for t in registry.resolve("ai.onnx", "Relu", 14).type_constraints["T"].types]
    assert "| element type | [onnxruntime](../support/onnxruntime.md) | [reference](../support/reference.md) | \n" \
        in section
    rows = [line for line in section.splitlines() if line.startswith("| ") and line.split(" | ")[0][2:] in allowed]
    assert [r.split(" | ")[0][2:] for r in rows] == allowed
    assert "| double | **fail** | pass | " in section and "| float | pass | pass | " in section
    assert "**Backend support**" not in relu[relu.index("## Version 13"):]  # no report for version 13


def test_a_report_of_a_few_ops_says_its_breadth(tmp_path: Path, registry: Registry) -> None:
    record = {"domain": "ai.onnx", "op": "Relu", "version": 14, "dtype": "float", "status": "pass", "examples": 5}
    cells = {"a": record, "b": {**record, "version": 13, "examples": 3}, "c": {**record, "dtype": "double"}}
    (tmp_path / "few.json").write_text(json.dumps({"backend": "few", "complete": False, "cells": cells}), "utf-8")
    pages = render_site(registry, read_reports(tmp_path))
    assert "| [few](few.md) | 2 | 3 | up to 5 (run stopped early) | 3/3 pass |" in pages["support/index.md"]
    assert ("The run covered 2 op versions (3 cells), up to 5 cases a cell (draws and examples), and stopped before "
            "every cell it selected had finished;") in pages["support/few.md"]
    assert "| Sigmoid | " not in pages["support/domain-ai.onnx.md"]  # an op version it did not run has no row
    _report(tmp_path / "few.json", "few", [{**record, "examples": -1}])
    with pytest.raises(ReportError, match="'examples' must be a count"):
        read_reports(tmp_path)


@pytest.mark.parametrize(("records", "message"), [
    ([{"domain": "ai.onnx", "op": "Relu", "version": 14, "dtype": "float32"}], "record 0: missing 'status'"),
    ([{"domain": "ai.onnx", "op": "Relu", "version": 14, "dtype": "float32", "status": "ok"}], "'status' 'ok'"),
    ([{"domain": "ai.onnx", "op": "Relu", "version": "14", "dtype": "float32", "status": "pass"}], "'version'"),
    ("nope", "'records' must be a list"),
])
def test_malformed_reports_are_errors(tmp_path: Path, records: object, message: str) -> None:
    _report(tmp_path / "bad.json", "x", records)
    with pytest.raises(ReportError, match=message) as info:
        read_reports(tmp_path)
    assert "bad.json" in str(info.value)


def test_report_that_is_not_json_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(ReportError, match=r"broken\.json:1: not JSON"):
        read_reports(tmp_path)


def test_generate_writes_only_changes_and_check_names_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    out = tmp_path / "docs"
    (out / "reports").mkdir(parents=True)
    (out / "format.md").write_text("# hand-written\n", encoding="utf-8")
    args = ["--out", str(out), "--reports", str(out / "reports")]
    assert main(args) == 0
    page = out / "ai.onnx" / "AveragePool.md"
    stamp = page.stat().st_mtime_ns
    assert main(args) == 0
    assert page.stat().st_mtime_ns == stamp
    assert main([*args, "--check"]) == 0
    page.write_text(page.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    orphan = out / "ai.onnx" / "Gone.md"
    orphan.write_text(HEADER + "\n# Gone\n", encoding="utf-8")
    capsys.readouterr()
    assert main([*args, "--check"]) == 1
    err = capsys.readouterr().err
    assert f"stale: {page}" in err and f"no longer generated: {orphan}" in err
    assert f"run: gen docs --out {out} --reports {out / 'reports'}" in err
    assert main(args) == 0
    assert not orphan.exists() and main([*args, "--check"]) == 0
    assert (out / "format.md").read_text(encoding="utf-8") == "# hand-written\n"


def test_an_output_or_reports_folder_that_cannot_be_used_is_one_line_exit_2(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    for args, words in [(["--out", str(tmp_path / "file" / "docs")], f"{tmp_path}/file is a file, not a folder"),
                        (["--out", str(tmp_path / "docs"), "--reports", str(tmp_path / "typo")],
                         f"--reports {tmp_path}/typo: not a folder of conform reports")]:
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert err == f"gen docs: {words}" if "typo" in words else err.endswith(words), err
    assert not (tmp_path / "docs").exists()  # a mistyped reports folder no longer deletes the support pages
    with read_only_folder(tmp_path / "ro") as ro:
        assert main(["--out", str(ro / "docs")]) == 2
        assert capsys.readouterr().err.strip().startswith(f"gen docs: {ro}/docs: cannot write in {ro}: ")


def test_committed_docs_are_current() -> None:
    assert main(["--check"]) == 0, "docs/ is stale: run gen docs"


def test_a_hand_written_page_in_the_way_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docs"
    (out / "ai.onnx").mkdir(parents=True)
    (out / "ai.onnx" / "Relu.md").write_text("# my own notes\n", encoding="utf-8")
    (tmp_path / "none").mkdir()
    assert main(["--out", str(out), "--reports", str(tmp_path / "none")]) == 1
    assert "Relu.md was not written by the generator" in capsys.readouterr().err
    assert (out / "ai.onnx" / "Relu.md").read_text(encoding="utf-8") == "# my own notes\n"


def test_pages_with_an_older_header_wording_are_still_recognised(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    (tmp_path / "none").mkdir()  # an empty folder of reports: no support pages
    assert main(["--out", str(out), "--reports", str(tmp_path / "none")]) == 0
    page = out / "ai.onnx" / "Relu.md"
    page.write_text(page.read_text(encoding="utf-8").replace(HEADER, MARKER + " (an older wording) -->"),
                    encoding="utf-8")
    assert main(["--out", str(out), "--reports", str(tmp_path / "none")]) == 0
    assert page.read_text(encoding="utf-8").startswith(HEADER)


def test_op_pages_name_the_python_function_of_each_version(site: dict[str, str]) -> None:
    import importlib
    import re

    from opset.graph.op import op_ref

    named = 0
    for path, page in site.items():
        for signature, dotted in re.findall(r"^`([^`]+)` · opsets .* · Python \[`([^`]+)`\]", page, re.MULTILINE):
            module, _, name = dotted.rpartition(".")
            assert op_ref(getattr(importlib.import_module(module), name)).signature == signature, path
            named += 1
    assert named >= 900  # nearly every version (not those no opset resolves to)
    assert "· Python [" not in site["ai.onnx/ATen.md"]  # removed from every opset: no function writes it
