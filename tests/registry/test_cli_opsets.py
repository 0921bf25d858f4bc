"""`opset list` / `opset show` with an opset that cannot be: a usage error, never an empty listing with exit 0."""

from __future__ import annotations

import pytest

from opset.cli import main


@pytest.mark.parametrize("command", ["list", "show Relu"])
@pytest.mark.parametrize("opset", ["0", "-3"])
def test_an_opset_below_one_is_a_usage_error(command: str, opset: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*command.split(), "--opset", opset])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(f"argument --opset: an opset is 1 or more, not {opset}")


def test_an_opset_past_the_newest_is_an_error_naming_the_newest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--opset", "999"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "ai.onnx has no opset 999; its newest opset is" in captured.err


def test_a_real_opset_still_lists(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--opset", "7"]) == 0
    assert "Relu                     ai.onnx@6" in capsys.readouterr().out
