"""`opset inspect`: its counts against an independent walk of each file, the op histogram, and the CLI."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from opset.cli import main
from opset.registry import Registry
from opset.tmfile import read_tmfile, write_tmfile
from opset.tmfile.inspect import summarize
from opset.tmfile.params import param_structs, tengine_versions
from tests.helpers.tmfile import SHARED, SHARED_IDS, tmfile_dir, walk
from tests.tmfile.conftest import shared_model


def _names_by_id(registry: Registry) -> dict[int, str]:
    out = {}
    for (domain, name), op in registry.ops.items():
        t = op.versions[-1].tengine
        if domain == "tengine" and t is not None:
            out[t.op_id] = name
    return out


def _inspect_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["inspect", str(path), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_inspect_counts_match_an_independent_walk(path: Path, registry: Registry,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    got = _inspect_json(path, capsys)
    want = walk(path.read_bytes())
    assert (got["nodes"], got["tensors"], got["buffers"]) == (want.nodes, want.tensors, want.buffers)
    assert (got["inputs"], got["outputs"]) == (want.inputs, want.outputs)
    names = _names_by_id(registry) | {12: "InputOp"}  # tm2_format.h's TM2_OPTYPE_INPUTOP, not a registry op
    histogram = Counter({names.get(op_id, f"unknown({op_id})"): count for op_id, count in want.op_ids.items()})
    assert got["op_types"] == dict(histogram)
    assert len(got["node_list"]) == want.nodes


@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_parameters_are_named_as_opset_show_names_them(path: Path, registry: Registry) -> None:
    model = read_tmfile(path)
    summary = summarize(model, param_structs(registry), tengine_versions(registry))
    for node, shown in zip(model.graph.nodes, summary["node_list"], strict=True):
        if node.op_name is None:
            continue
        version = registry.resolve("tengine", node.op_name, registry.domains["tengine"].max_opset)
        assert version.tengine is not None
        assert set(shown["params"]) <= set(version.attributes)
        if node.older_layout is None:
            layout_names = [f.attribute or f.name for f in version.tengine.layout][:len(node.params)]
            assert list(shown["params"]) == layout_names
        else:  # an older writer's struct: the attributes it gives, and its fields as stored
            assert shown["older_struct"] == node.params


def test_names_that_are_not_utf8_are_escaped_in_every_printout(tmp_path: Path, mnist_bytes: bytes,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Bytes of a name that are not UTF-8 print as \\xNN, in the text and in the JSON (the raw bytes went to the
    terminal before)."""
    model = read_tmfile(mnist_bytes)
    graph = model.graph
    nodes = tuple(dataclasses.replace(n, name="conv\udce9") if n.index == 12 else n for n in graph.nodes)
    tensors = tuple(dataclasses.replace(t, name="x\udcff") if t.index == 11 else t for t in graph.tensors)
    path = tmp_path / "latin1.tmfile"
    path.write_bytes(write_tmfile(dataclasses.replace(model, name="m\udce9", subgraphs=(
        dataclasses.replace(graph, nodes=nodes, tensors=tensors),), raw={})))
    assert main(["inspect", str(path)]) == 0
    text = capsys.readouterr().out
    assert "conv\\xe9" in text and "x\\xff" in text and "model:        m\\xe9" in text
    text.encode("utf-8")  # nothing left that a terminal would take as raw bytes
    got = _inspect_json(path, capsys)
    assert got["node_list"][12]["name"] == "conv\\xe9" and got["model"]["name"] == "m\\xe9"
    assert got["node_list"][12]["inputs"][0]["name"] == "x\\xff"


def test_mnist_histogram(capsys: pytest.CaptureFixture[str], mnist_bytes: bytes) -> None:
    got = _inspect_json(tmfile_dir() / "mnist.tmfile", capsys)
    ops = got["op_types"]
    assert {"Convolution", "FullyConnected", "Const"} <= set(ops)
    assert sum(ops.values()) == got["nodes"]
    assert got["model"]["framework"] == "onnx" and got["model"]["format_version"] == "2.0.0"
    conv = next(n for n in got["node_list"] if n["op"] == "Convolution")
    assert conv["params"]["kernel_h"] == conv["inputs"][1]["dims"][2]  # the weight's kernel height
    (entry,) = got["input_nodes"]
    assert entry["tensors"][0]["kind"] == "input" and len(entry["tensors"][0]["dims"]) == 4


def test_text_output_names_the_model_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    path = tmfile_dir() / "yolov3_tiny_benchmark.tmfile"
    data = shared_model(path.name)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    want = walk(data)
    assert f"{want.nodes} nodes, {want.tensors} tensors, {want.buffers} buffers" in out
    assert "framework:    darknet" in out  # Tengine 1.x numbering: its darknet converter wrote 7
    assert "Convolution" in out and "kernel_h=" in out


def test_a_truncated_file_exits_2_with_one_line(tmp_path: Path, mnist_bytes: bytes,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "cut.tmfile"
    bad.write_bytes(mnist_bytes[:5000])
    assert main(["inspect", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "cut.tmfile" in captured.err and "0x" in captured.err


def test_cli_subprocess_on_bad_files_has_no_traceback(tmp_path: Path, mnist_bytes: bytes) -> None:
    cases = {"cut.tmfile": mnist_bytes[:777], "text.tmfile": b"not a model at all\n", "empty.tmfile": b""}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    for name in (*cases, "missing.tmfile"):
        r = subprocess.run([sys.executable, "-m", "opset.cli", "inspect", str(tmp_path / name)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2, (name, r.stderr)
        assert r.stdout == "" and "Traceback" not in r.stderr
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("error: "), r.stderr
