"""`opset run` and the Python runner at their edges: feeds checked against the declared inputs before any node
runs, output folders checked before the run and written without half files, SIGINT / SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conformance.models import FeedError, ModelRunError, run_model
from conformance.models.cli import main_run
from tests.helpers.folders import full_folder, read_only_folder

F = TensorProto.FLOAT


def _model() -> onnx.ModelProto:
    """y = softmax(x @ w + m), z = relu(x @ w + m): x [N, 4], m [N, 3]."""
    w = numpy_helper.from_array(np.ones((4, 3), np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["xw"]), helper.make_node("Add", ["xw", "m"], ["s"]),
             helper.make_node("Softmax", ["s"], ["y"]), helper.make_node("Relu", ["s"], ["z"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, ["N", 4]),
                                           helper.make_tensor_value_info("m", F, ["N", 3])],
                              [helper.make_tensor_value_info("y", F, ["N", 3]),
                               helper.make_tensor_value_info("z", F, ["N", 3])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


X = np.ones((2, 4), np.float32)
M = np.zeros((2, 3), np.float32)


class Counting:
    """The reference backend, counting the nodes it is asked to run."""

    def __init__(self) -> None:
        from conformance.backends.reference import ReferenceBackend

        self.inner = ReferenceBackend()
        self.calls = 0

    def run(self, node: onnx.NodeProto, inputs: list[Any], opset_imports: Mapping[str, int] | None = None) -> list[Any]:
        self.calls += 1
        return list(self.inner.run(node, inputs, opset_imports=opset_imports))


@pytest.mark.parametrize(("feeds", "words"), [
    ({"x": X.astype(np.int64), "m": M}, "input 'x' is declared tensor(float), but its value is tensor(int64)"),
    ({"x": X[0], "m": M}, "input 'x' is declared with rank 2 ['N', 4], but its value has shape [4]"),
    ({"x": np.ones((2, 5), np.float32), "m": M}, "input 'x' dim 1 is declared 4, but its value has 5"),
    ({"x": X, "m": np.zeros((3, 3), np.float32)}, "symbolic dim 'N' is 2 by 'x' dim 0 but 3 in input 'm' dim 0"),
    ({"x": [1.0, 2.0], "m": M}, "input 'x' is declared tensor(float), but its value is a list, not an array"),
    ({"x": X}, "no value given for graph input(s) m"),
    ({"x": X, "m": M, "q": M}, "'q' is not an input of the graph (inputs: x, m)"),
])
def test_the_python_runner_refuses_a_feed_that_does_not_fit_before_any_node_runs(feeds: dict[str, object],
                                                                                  words: str) -> None:
    counting = Counting()
    with pytest.raises(FeedError) as caught:
        run_model(_model(), feeds, counting)
    assert words in str(caught.value)
    assert counting.calls == 0


def test_feeds_that_fit_run() -> None:
    got = run_model(_model(), {"x": X, "m": M})
    np.testing.assert_allclose(got["y"], np.full((2, 3), 1 / 3, np.float32), rtol=1e-6)


def test_an_empty_model_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ModelRunError, match="no graph outputs"):
        run_model(onnx.ModelProto(), {})
    empty = tmp_path / "empty.onnx"
    empty.write_bytes(b"")
    assert main_run([str(empty), "--output-dir", str(tmp_path / "out")]) == 2
    assert "the model has no graph outputs" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _saved(tmp_path: Path, name: str, value: np.ndarray) -> str:
    path = tmp_path / name
    np.save(path, value)
    return str(path)


@pytest.mark.parametrize(("extra", "words"), [
    (["--dim", "M=4"], "--dim M: no graph input has such a dim (its symbolic dims: N)"),
    (["--dim", "N=3"], "symbolic dim 'N' is 3 by --dim but 2 in input 'x' dim 0"),
    (["--input", "m=@M3"], "symbolic dim 'N' is 2 by 'x' dim 0 but 3 in input 'm' dim 0"),
    (["--input", "m=@TEXT"], "not a .npy file (numpy.save writes one) but a file starting with b'1 2 3'"),
    (["--input", "m=@EMPTY"], "not a .npy file (numpy.save writes one) but an empty file"),
])
def test_opset_run_checks_every_feed_and_dim_before_running(tmp_path: Path, extra: list[str], words: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    (tmp_path / "t.txt").write_text("1 2 3")
    (tmp_path / "e.npy").write_bytes(b"")
    files = {"@M3": _saved(tmp_path, "m3.npy", np.zeros((3, 3), np.float32)), "@TEXT": str(tmp_path / "t.txt"),
             "@EMPTY": str(tmp_path / "e.npy")}
    extra = [next((a.replace(k, v) for k, v in files.items() if k in a), a) for a in extra]
    out = tmp_path / "out"
    code = main_run([str(model), "--input", f"x={_saved(tmp_path, 'x.npy', X)}", *extra, "--output-dir", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_opset_run_draws_the_missing_inputs_with_the_dims_the_given_ones_bind(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    x = np.ones((5, 4), np.float32)
    assert main_run([str(model), "--input", f"x={_saved(tmp_path, 'x.npy', x)}", "--output-dir", str(tmp_path)]) == 0
    assert np.load(tmp_path / "y.npy").shape == (5, 3)


def test_an_output_folder_that_cannot_be_written_is_found_before_the_run(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    (tmp_path / "file").write_text("")
    assert main_run([str(model), "--output-dir", str(tmp_path / "file" / "out")]) == 2
    assert capsys.readouterr().err.strip() == f"opset run: --output-dir {tmp_path}/file/out: cannot be created: " \
                                             f"{tmp_path}/file is a file"
    with read_only_folder(tmp_path / "ro") as ro:
        for target in (ro, ro / "out" / "deeper"):
            assert main_run([str(model), "--output-dir", str(target)]) == 2
            err = capsys.readouterr().err.strip()
            assert err.startswith(f"opset run: --output-dir {target}: ") and "not writable" in err
            assert len(err.splitlines()) == 1
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "y.npy").mkdir()
    assert main_run([str(model), "--output-dir", str(tmp_path / "taken")]) == 2
    assert "a folder of that name is in the way" in capsys.readouterr().err


def test_a_full_disk_is_one_line_exit_1_keeping_what_was_written(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    big = np.zeros((600, 4), np.float32)  # y and z are 600x3 float32: 7 KiB each, with the header
    feeds = ["--input", f"x={_saved(tmp_path, 'x.npy', big)}", "--input", f"m={_saved(tmp_path, 'm.npy', big[:, :3])}"]
    model = tmp_path / "m.onnx"
    onnx.save(_model(), model)
    with full_folder(tmp_path / "full", size_kb=12) as full:
        code = main_run([str(model), *feeds, "--output-dir", str(full)])
        err = capsys.readouterr().err.strip()
        assert code == 1
        assert err == f"opset run: cannot write {full}/z.npy: No space left on device (kept: {full}/y.npy)"
        assert sorted(p.name for p in full.iterdir()) == ["y.npy"]  # no half-written z.npy, no temporary file
        np.testing.assert_allclose(np.load(full / "y.npy"), np.full((600, 3), 1 / 3, np.float32), rtol=1e-6)


SLOW_MODEL = """
import sys, time
import numpy as np, onnx
from onnx import helper, TensorProto
nodes = [helper.make_node("Relu", ["x"], ["y"])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
from conformance.backends.reference import ReferenceBackend
import conformance.models.runner as runner
class Slow(ReferenceBackend):
    def run(self, *args, **kwargs):
        print("running", flush=True)
        time.sleep(60)
        return super().run(*args, **kwargs)
runner_init = runner.ModelRunner.__init__
runner.ModelRunner.__init__ = lambda self, m, executor=None: runner_init(self, m, Slow())
onnx.save(model, sys.argv[1])
from conformance.models.cli import main_run
sys.exit(main_run([sys.argv[1], "--output-dir", sys.argv[2]]))
"""


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_opset_run_with_its_exit_code_and_one_line(tmp_path: Path, signum: int, code: int) -> None:
    script = tmp_path / "slow.py"
    script.write_text(SLOW_MODEL)
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path / "m.onnx"), str(tmp_path / "out")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path.cwd())
    assert proc.stdout is not None
    while proc.stdout.readline().strip() != "running":  # the node has started: the signal comes mid-run
        assert proc.poll() is None
    started = time.monotonic()
    os.kill(proc.pid, signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert err.strip() == f"opset run: interrupted by {signal.Signals(signum).name} (no output written)"
    assert time.monotonic() - started < 30
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
