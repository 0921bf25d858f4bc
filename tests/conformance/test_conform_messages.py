"""What conform says about a cell (issue 24): a backend's error whole, on one line and bounded, everywhere it is shown;
unsupported cells grouped by their reason; declined draws and unexpectedly passing cells named; `--opsets` ranges."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conformance.registry import current_registry
from conformance.runner.config import ConfigError, OpsetRange, opset_filter, parse_opsets
from conformance.runner.messages import CUT_MARKER, MESSAGE_LIMIT, one_line
from conformance.runner.report import RunReport, summarize
from conformance.runner.results import CellResult, Outcome
from tests.conformance.wrong_backends.raises_a_long_story import CAUSE, WHERE
from tests.helpers.conform_cli import conform, run_and_report

LONG_STORY = "tests.conformance.wrong_backends.raises_a_long_story"


def test_a_message_is_one_line_and_bounded_with_a_marker() -> None:
    assert one_line("Exception from x.cpp:75:\n  Check failed:\n\tthe cause\n") == \
        "Exception from x.cpp:75: Check failed: the cause"
    cut = one_line("y" * 5000)
    assert cut == "y" * MESSAGE_LIMIT + CUT_MARKER.format(count=5000 - MESSAGE_LIMIT)


def test_a_backends_whole_error_reaches_the_summary_the_report_the_bundle_and_the_replay(tmp_path: Path) -> None:
    """Was: "Exception from src/inference/src/cpp/infer_request.cpp:75:" and the cause dropped, everywhere."""
    result, data = run_and_report(tmp_path, LONG_STORY, "--op", "Abs,Neg", "--domain", "ai.onnx", "--max-examples",
                                  "2")
    assert result.returncode == 1
    whole = f"{WHERE} {CAUSE}"
    abs_cells = [c for c in data["cells"].values() if c["op"] == "Abs" and c["status"] == "fail"]
    assert abs_cells and all(whole in c["messages"][0] for c in abs_cells)
    assert all(whole in c["failures"][0]["what"] for c in abs_cells)
    fail_lines = [ln for ln in result.stdout.splitlines() if ln.startswith("FAIL ai.onnx@13::Abs[")]
    assert fail_lines and all(whole in ln for ln in fail_lines)
    bundle = Path(abs_cells[0]["repro"])
    assert whole in json.loads((bundle / "case.json").read_text())["failure"]
    replay = conform(*(bundle / "command.txt").read_text().split()[1:])
    assert replay.returncode == 1 and whole in replay.stderr
    neg = next(c for c in data["cells"].values() if c["op"] == "Neg" and c["status"] == "fail")
    said = neg["failures"][0]["what"]
    assert "x" * MESSAGE_LIMIT in said and CUT_MARKER.format(count=10_000 - MESSAGE_LIMIT) in said
    assert "x" * (MESSAGE_LIMIT + 1) not in said


def _unsupported(op: str, dtype: str, reason: str) -> CellResult:
    outcome = Outcome("properties", "unsupported", f"unsupported: {reason}", reason=reason)
    return CellResult.of(("ai.onnx", op, 13, dtype), [outcome])


def test_unsupported_cells_are_grouped_by_their_whole_reason() -> None:
    """Was: grouped by the text after the last ': ', so reasons sharing an ending ("...: 10") became one group."""
    report = RunReport("b")
    for op in ("Abs", "Neg", "Relu"):
        report.add(_unsupported(op, "float", "ORT: could not find an implementation for the node: 10"))
    report.add(_unsupported("Sqrt", "float", "no kernel for this element type: 10"))
    lines = [ln for ln in summarize(report).splitlines() if ln.startswith("unsupported (")]
    assert lines == ["unsupported (3 cells): ORT: could not find an implementation for the node: 10 "
                     "(ai.onnx@13::Abs[float], ai.onnx@13::Neg[float], ai.onnx@13::Relu[float])",
                     "unsupported (1 cell): no kernel for this element type: 10 (ai.onnx@13::Sqrt[float])"]


def test_declined_draws_and_unexpected_passes_are_named_in_the_summary() -> None:
    report = RunReport("b", expectations="gaps.yaml")
    report.add(CellResult.of(("ai.onnx", "Conv", 22, "float"),
                             [Outcome("properties", "pass", examples=7, unsupported_draws=9,
                                      unsupported_reason="dilations with SAME_UPPER")]))
    report.add(CellResult.of(("ai.onnx", "Relu", 14, "float"), [Outcome("properties", "xpass", "expected: gap")],
                             "negative values pass through"))
    text = summarize(report)
    assert "DECLINED ai.onnx@22::Conv[float] (pass): 9 of 16 drawn cases declined by the backend: dilations with " \
           "SAME_UPPER" in text.splitlines()
    assert "XPASS ai.onnx@14::Relu[float]: listed as a known gap (negative values pass through) but every test " \
           "passed: remove its entry from gaps.yaml" in text.splitlines()


@pytest.mark.parametrize(("text", "ranges"), [
    ("7-", (OpsetRange(None, 7, None),)),
    ("-6", (OpsetRange(None, None, 6),)),
    ("13", (OpsetRange(None, 13, 13),)),
    ("1-6, 13-18", (OpsetRange(None, 1, 6), OpsetRange(None, 13, 18))),
    ("ai.onnx=7-", (OpsetRange("ai.onnx", 7, None),)),
])
def test_opset_ranges_parse(text: str, ranges: tuple[OpsetRange, ...]) -> None:
    assert parse_opsets(text) == ranges


@pytest.mark.parametrize("text", ["", "x", "7--", "9-3", "ai.onnx="])
def test_a_bad_opset_range_is_a_config_error(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_opsets(text)


def test_a_range_keeps_the_versions_some_opset_in_it_resolves_to() -> None:
    """Relu has versions 1, 6, 13 and 14: `7-` keeps 6 (opsets 7 to 12 resolve to it), `-6` keeps 1 and 6, a range
    of ai.onnx leaves other domains whole."""
    registry = current_registry()

    def kept(text: str, domain: str = "ai.onnx", op: str = "Relu") -> list[int]:
        keep = opset_filter(parse_opsets(text), registry)
        return [v.since for v in registry.op(domain, op).versions if keep(domain, op, v.since)]

    assert kept("7-") == [6, 13, 14]
    assert kept("-6") == [1, 6]
    assert kept("13") == [13]
    assert kept("15-") == [14]
    assert kept("ai.onnx=7-", "ai.onnx.ml", "TreeEnsembleClassifier") == [1, 3, 5]


def _cells(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    report = tmp_path / "r.json"
    result = conform("--backend", "reference", "--op", "Relu", "--domain", "ai.onnx", "--max-examples", "1",
                     "--report", str(report), *args)
    cells = sorted(json.loads(report.read_text())["cells"]) if report.is_file() else []
    return result, cells


def test_opsets_leave_out_legacy_versions_and_opset_keeps_its_meaning(tmp_path: Path) -> None:
    result, cells = _cells(tmp_path, "--opsets", "7-")
    assert result.returncode == 0, result.stderr
    assert cells and not [c for c in cells if c.startswith("ai.onnx@1::")]
    assert any(c.startswith("ai.onnx@6::") for c in cells)
    result, cells = _cells(tmp_path, "--opset", "12")
    assert result.returncode == 0 and cells and all(c.startswith("ai.onnx@6::") for c in cells)


@pytest.mark.parametrize(("args", "message"), [
    (("--opset", "999"), "conform: --opset 999: beyond every opset the registry knows (the newest is ai.onnx 28)"),
    (("--opsets", "30-"), "conform: --opsets 30-: beyond every opset the registry knows (the newest is ai.onnx 28)"),
    (("--opsets", "com.microsoft=2"), "conform: --opsets com.microsoft=2: beyond every opset the registry knows "
                                      "(the newest is com.microsoft 1)"),
    (("--opsets", "nosuch.domain=3"), "conform: --opsets nosuch.domain=3: no domain 'nosuch.domain'"),
    (("--opset", "7", "--opsets", "7-"), "conform: --opset N is --opsets N: give one of them"),
    (("--timeout", "0"), "conform: --timeout must be more than 0 seconds, not 0"),
    (("--timeout", "-5"), "conform: --timeout must be more than 0 seconds, not -5"),
])
def test_impossible_selections_are_usage_errors(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result, cells = _cells(tmp_path, *args)
    assert result.returncode == 2 and not cells, result.stdout[-1000:] + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith(message), result.stderr
