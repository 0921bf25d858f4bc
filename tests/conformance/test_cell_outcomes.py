"""What a cell's status says: a listed gap stays xfail until it is really gone, and a backend that declines some
drawn cases is counted draw by draw instead of hiding the cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.runner.report import cell_status
from tests.helpers.conform_cli import run_and_report

WRONG = "tests.conformance.wrong_backends"


@pytest.mark.parametrize(("outcomes", "status"), [
    ({"xfail": 2, "xpass": 3}, "xfail"),  # the gap shows in some tests: not fixed
    ({"xpass": 2, "unsupported": 1}, "xfail"),  # a test that did not run cannot show the gap gone
    ({"xpass": 3}, "xpass"),
    ({"xfail": 1}, "xfail"),
    ({"fail": 1, "xfail": 1}, "fail"),
    ({"pass": 2, "unsupported": 1}, "pass"),
    ({"pass": 1, "ambiguous": 1}, "ambiguous"),
    ({"unsupported": 2}, "unsupported"),
])
def test_a_cell_is_xpass_only_when_every_test_of_it_passed(outcomes: dict[str, int], status: str) -> None:
    assert cell_status(outcomes) == status


def test_a_listed_gap_is_xfail_until_it_is_gone(tmp_path: Path) -> None:
    """The fixed point: the backend whose only gap is listed gets xfail on exactly the listed cells and passes the
    rest; the same expectations on a backend without the gap (the reference) give xpass on those cells."""
    expectations = tmp_path / "gaps.yaml"
    expectations.write_text("- {op: Relu, dtype: 'float*', reason: negative values pass through}\n")
    gapped, gapped_data = run_and_report(tmp_path / "gapped", f"{WRONG}.relu_gap_on_floats", "--op", "Relu",
                                         "--max-examples", "10", "--expectations", str(expectations))
    fixed, fixed_data = run_and_report(tmp_path / "fixed", "reference", "--op", "Relu", "--max-examples", "5",
                                       "--expectations", str(expectations))
    assert gapped.returncode == 0 and fixed.returncode == 0, gapped.stdout[-2000:] + fixed.stdout[-2000:]
    listed = {k for k, c in gapped_data["cells"].items() if c["dtype"] in ("float", "float16")}
    assert len(listed) >= 6
    for key, cell in gapped_data["cells"].items():
        assert cell["status"] == ("xfail" if key in listed else "pass"), (key, cell)
    for key, cell in fixed_data["cells"].items():
        assert cell["status"] == ("xpass" if key in listed else "pass"), (key, cell)
    # the summary names each gap that is gone, and where to remove it
    assert f"XPASS ai.onnx@14::Relu[float]: listed as a known gap (negative values pass through) but every test " \
           f"passed: remove its entry from {expectations}" in fixed.stdout.splitlines()


def test_declined_draws_are_counted_one_by_one(tmp_path: Path) -> None:
    """Softmax with a negative axis declined: the cell still runs its other draws and passes, counting both; Relu
    on int8 declined whole: its cell (no YAML example is int8) is unsupported with the backend's reason, not a
    pass and not a Hypothesis health-check failure."""
    result, data = run_and_report(tmp_path, f"{WRONG}.declines_some_draws", "--op", "Softmax,Relu",
                                  "--max-examples", "10")
    assert result.returncode == 0, result.stdout[-3000:]
    softmax = data["cells"]["ai.onnx@13::Softmax[float]"]
    assert softmax["status"] == "pass" and softmax["outcomes"] == {"pass": softmax["tests"]}
    assert softmax["unsupported_draws"] > 0 and softmax["examples"] > 0
    assert softmax["examples"] + softmax["unsupported_draws"] >= 10
    assert softmax["unsupported_reason"].startswith("Softmax with a negative axis")
    relu = data["cells"]["ai.onnx@14::Relu[int8]"]
    assert relu["status"] == "unsupported" and relu["examples"] == 0 and relu["unsupported_draws"] == 10
    assert "Relu on int8" in relu["messages"][0]
    others = [c for k, c in data["cells"].items() if "Relu" in k and c["dtype"] != "int8"]
    assert others and all(c["unsupported_draws"] == 0 and c["status"] == "pass" for c in others)
    # the summary names the cell that passed on part of its draws (was: a plain "pass"), and why the others were not
    lines = result.stdout.splitlines()
    declined = softmax["unsupported_draws"]
    drawn = declined + softmax["examples"]
    assert any(ln.startswith(f"DECLINED ai.onnx@13::Softmax[float] (pass): {declined} of {drawn} drawn cases "
                             "declined by the backend: Softmax with a negative axis") for ln in lines), lines
    assert any(ln.startswith("unsupported (") and ": Relu on int8 (ai.onnx@14::Relu[int8]" in ln for ln in lines)
