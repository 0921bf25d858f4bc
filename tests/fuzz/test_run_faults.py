"""`opset run` and `run_model` under faults: feeds of every wrong kind, input files of any bytes, signals at random
moments, read-only and full output folders. Every run ends with exit 0, 1, 2, 130 or 143, never a traceback, with
at most one line of error, and leaves only whole output files (each loads; no temporary file remains)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from onnx import TensorProto

from conformance.models import FeedError, ModelRunError, run_model
from conformance.models.cli import main_run
from tests.helpers.chain_models import chain_model
from tests.helpers.folders import full_folder, read_only_folder
from tests.helpers.fuzz import SEED, fuzz, run_main

pytestmark = pytest.mark.fuzz

F = TensorProto.FLOAT


MODEL = chain_model()
DTYPES = ["float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool", "complex64", "object", "<U3"]


@st.composite
def feed_values(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["array", "array", "array", "scalar", "list", "none", "dict", "string"]))
    if kind == "scalar":
        return draw(st.sampled_from([np.float32(1), 1.5, 3, True, np.int64(2)]))
    if kind == "list":
        return draw(st.lists(st.floats(allow_nan=False, width=32), max_size=4))
    if kind == "none":
        return None
    if kind == "dict":
        return {1: np.zeros(2, np.float32)}
    if kind == "string":
        return "x.npy"
    shape = draw(st.lists(st.integers(0, 5), max_size=4))
    dtype = draw(st.sampled_from(DTYPES))
    return np.zeros(shape, dtype=np.dtype(dtype))


@fuzz(200)
@given(feeds=st.dictionaries(st.sampled_from(["x", "m", "y", "w", "q", ""]), feed_values(), max_size=4))
def test_the_python_runner_answers_any_feeds_with_a_result_or_a_feed_error(feeds: dict[str, Any]) -> None:
    try:
        got = run_model(MODEL, feeds)
    except FeedError as e:
        assert e.problems and all("\n" not in p for p in e.problems)
        return
    except ModelRunError:  # a feed overriding the initializer w may still fail in a node, located
        assert "w" in feeds
        return
    assert set(got) == {"y", "z"}
    for name in ("x", "m"):
        assert isinstance(feeds[name], np.ndarray) and feeds[name].dtype == np.float32


@st.composite
def input_files(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["bytes", "npy", "truncated", "npz", "pickle", "text"]))
    if kind == "bytes":
        return draw(st.binary(max_size=64))
    if kind == "text":
        return b"1 2 3\n4 5 6\n"
    import io

    buffer = io.BytesIO()
    if kind in ("npy", "truncated"):
        shape = draw(st.lists(st.integers(0, 4), max_size=3))
        np.save(buffer, np.ones(shape, dtype=np.dtype(draw(st.sampled_from(DTYPES[:-2])))))
        data = buffer.getvalue()
        return data[:draw(st.integers(0, len(data)))] if kind == "truncated" else data
    if kind == "pickle":
        np.save(buffer, np.array([{"a": 1}], dtype=object), allow_pickle=True)
        return buffer.getvalue()
    np.savez(buffer, a=np.ones(2, np.float32), b=np.zeros(1))
    return buffer.getvalue()


@fuzz(60)
@given(x=input_files(), m=input_files(), dims=st.lists(st.sampled_from(["N=2", "N=-1", "M=3", "N=x", "=3", "N"]),
                                                          max_size=2))
def test_opset_run_answers_any_input_file_in_one_line(tmp_path_factory: pytest.TempPathFactory, x: bytes, m: bytes,
                                                      dims: list[str]) -> None:
    work = tmp_path_factory.mktemp("run")
    onnx.save(MODEL, work / "m.onnx")
    (work / "x.npy").write_bytes(x)
    (work / "m.npy").write_bytes(m)
    argv = [str(work / "m.onnx"), "--input", f"x={work / 'x.npy'}", "--input", f"m={work / 'm.npy'}",
            "--output-dir", str(work / "out")]
    for d in dims:
        argv += ["--dim", d]
    outcome = run_main(main_run, argv)
    assert outcome.code in (0, 1, 2), outcome.stderr
    assert "Traceback" not in outcome.stderr
    if outcome.code:
        assert len(outcome.stderr.strip().splitlines()) == 1, outcome.stderr
        assert not (work / "out").exists() or outcome.code == 1
    _whole_outputs(work / "out")


def _whole_outputs(folder: Path) -> None:
    if not folder.exists():
        return
    for path in folder.iterdir():
        assert not path.name.endswith(".partial"), f"a temporary file remains: {path}"
        np.load(path)  # every output written is whole


SLOW_RUN = """
import sys
import numpy as np, onnx
sys.path.insert(0, {root!r})
from tests.helpers.chain_models import chain_model
onnx.save(chain_model(layers=30, width=384), sys.argv[1])  # a few seconds
rng = np.random.default_rng(0)
np.save(sys.argv[2], rng.standard_normal((256, 384)).astype(np.float32))
from conformance.models.cli import main_run
print("start", flush=True)
sys.exit(main_run([sys.argv[1], "--input", "x=" + sys.argv[2], "--input", "m=" + sys.argv[2],
                   "--output-dir", sys.argv[3]]))
"""


@pytest.mark.timeout(600)
def test_signals_at_random_moments_stop_opset_run_cleanly(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    script = tmp_path / "slow.py"
    script.write_text(SLOW_RUN.format(root=str(Path(__file__).resolve().parents[2])))
    interrupted = 0
    for trial in range(6):
        work = tmp_path / f"t{trial}"
        work.mkdir()
        signum = rng.choice([signal.SIGINT, signal.SIGTERM])
        proc = subprocess.Popen([sys.executable, str(script), str(work / "m.onnx"), str(work / "x.npy"),
                                 str(work / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "start"
        # while reading, running or writing, or after it ended (from 50 ms on: before main_run takes its handlers,
        # the interpreter still answers a signal its own way, as any Python program does)
        time.sleep(rng.uniform(0.05, 4.0))
        os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=120)
        done = sorted(q.name for q in (work / "out").iterdir()) == ["y.npy", "z.npy"] if (work / "out").exists() \
            else False
        # after main_run returned, the interpreter's shutdown answers a signal its own way: the run was complete
        allowed = (0, 128 + signum, -signum) if done else (0, 128 + signum)
        assert proc.returncode in allowed, f"{signal.Signals(signum).name}: exit {proc.returncode}: {err}"
        assert "Traceback" not in err
        if proc.returncode > 0:
            interrupted += 1
            lines = err.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"opset run: interrupted by {signal.Signals(signum).name}")
        _whole_outputs(work / "out")
        with pytest.raises(ProcessLookupError):
            os.killpg(proc.pid, 0)  # nothing of the run's process group survives
    assert interrupted, "no signal came before the run ended: nothing was tested"


@fuzz(8)
@given(size_kb=st.integers(4, 64), rows=st.integers(1, 3000), read_only=st.booleans())
def test_full_and_read_only_output_folders_are_one_line_and_keep_whole_files(tmp_path_factory: pytest.TempPathFactory,
                                                                            size_kb: int, rows: int,
                                                                            read_only: bool) -> None:
    work = tmp_path_factory.mktemp("out")
    onnx.save(MODEL, work / "m.onnx")
    np.save(work / "x.npy", np.ones((rows, 4), np.float32))
    argv = [str(work / "m.onnx"), "--input", f"x={work / 'x.npy'}", "--input", f"m={work / 'x.npy'}"]
    if read_only:
        with read_only_folder(work / "ro") as ro:
            outcome = run_main(main_run, [*argv, "--output-dir", str(ro / "sub")])
            assert outcome.code == 2 and "not writable" in outcome.stderr
            assert len(outcome.stderr.strip().splitlines()) == 1
        return
    with full_folder(work / "full", size_kb=size_kb) as full:
        outcome = run_main(main_run, [*argv, "--output-dir", str(full)])
        assert outcome.code in (0, 1), outcome.stderr
        assert "Traceback" not in outcome.stderr
        if outcome.code == 1:
            lines = outcome.stderr.strip().splitlines()
            assert len(lines) == 1 and "No space left on device" in lines[0], lines
        _whole_outputs(full)
        if outcome.code == 0:
            assert sorted(q.name for q in full.iterdir()) == ["y.npy", "z.npy"]
