"""The console script ends a finished `opset validate` (and `infer`, `list` ...) without tearing the interpreter down
(`opset.process_end`): what it printed must all arrive, with the exit code `main` returned, and output that cannot be
written is an error, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from opset.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _many_errors(tmp_path: Path, count: int = 3000) -> str:
    """A model whose every node is an error (Relu given two inputs): `count` diagnostic lines, more than a pipe
    buffers."""
    nodes = [helper.make_node("Relu", ["x", "x"], [f"y{k}"], name=f"relu{k}") for k in range(count)]
    outputs = [helper.make_tensor_value_info(f"y{k}", TensorProto.FLOAT, [2]) for k in range(count)]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])], outputs)
    path = tmp_path / "many.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return str(path)


def _console(*args: str, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "opset.cli", *args], stdout=stdout, stderr=subprocess.PIPE,
                          cwd=ROOT, timeout=300, check=False)


def test_everything_printed_arrives_with_mains_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _many_errors(tmp_path)
    assert main(["validate", path]) == 1
    expected = capsys.readouterr().out
    done = _console("validate", path)
    assert done.returncode == 1, done.stderr.decode()
    assert done.stdout.decode() == expected
    assert expected.count("error [arity]") == 3000


def test_a_profiled_run_ends_the_usual_way_and_prints_its_profile(tmp_path: Path) -> None:
    """`python -m cProfile -m opset.cli validate M` prints its profile after the command: no early end under it."""
    done = subprocess.run([sys.executable, "-m", "cProfile", "-s", "tottime", "-m", "opset.cli", "validate",
                           _many_errors(tmp_path, 5)], capture_output=True, cwd=ROOT, timeout=300, check=False)
    out = done.stdout.decode()  # (cProfile ends with 0 whatever the command's code)
    assert "5 error(s)" in out and "function calls" in out and "Ordered by: internal time" in out


def test_a_usage_error_keeps_its_exit_code() -> None:
    done = _console("validate", "--no-such-option", "m.onnx")
    assert done.returncode == 2
    assert b"unrecognized arguments" in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device every write to fails)")
@pytest.mark.parametrize("argv", [["-m", "opset.cli", "validate"], ["-m", "opset.cli", "list"],
                                  ["-m", "opset.cli", "lint"]], ids=["validate", "list", "lint"])
def test_output_that_cannot_be_written_is_an_error(tmp_path: Path, argv: list[str]) -> None:
    """Was: `opset validate m.onnx > /dev/full` ended in an OSError traceback. `lint` ends the usual way, `validate`
    and `list` at once."""
    if argv[-1] == "validate":
        argv = [*argv, _many_errors(tmp_path, 50)]
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, *argv], stdout=full, stderr=subprocess.PIPE, cwd=ROOT, timeout=300,
                              check=False)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "No space left on device" in err
