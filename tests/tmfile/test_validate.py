"""`opset validate MODEL.tmfile`: the container checks, then the tengine-domain ONNX view through the validator.

Real files validate clean (exit 0); broken ones (bytes patched in a real file, or a real model with one record
changed) give exit 1 and a diagnostic that names the Tengine node; unreadable ones exit 2 with one line."""

from __future__ import annotations

import json
import struct
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.registry import current_registry
from opset.tmfile import Model, read_tmfile
from opset.tmfile.model import Node
from opset.tmfile.validate import validate_tmfile
from opset.validate.cli import main_validate
from opset.validate.diagnostics import Diagnostic
from tests.helpers.tmfile import tmfile_dir

DATA = tmfile_dir()  # $OPSET_TMFILE_DIR, else ../shared/data/tmfile
MNIST = DATA / "mnist.tmfile"
FILES = sorted(DATA.glob("*.tmfile"))

pytestmark = pytest.mark.skipif(not MNIST.exists(), reason=f"the shared Tengine models are not at {DATA}")

CONV_0 = 12  # mnist's first Convolution ('Conv_0'), fed by tensor 11 ('images')


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_real_files_validate_without_errors(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main_validate([str(path), "--json"]) == 0
    blob = json.loads(capsys.readouterr().out)
    assert blob["errors"] == 0
    # the only warnings real files give: parameter blocks of older writers' structs, flags they left uninitialised,
    # and dims their converters declared by an older reading of an op
    assert {d["check"] for d in blob["diagnostics"]} <= {"tmfile_params", "tmfile_flag", "ambiguous_reading"}


def test_older_short_blocks_are_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main_validate([str(DATA / "resnet18_benchmark.tmfile")]) == 0
    out = capsys.readouterr().out
    assert "warning [tmfile_params] node 14 'res2a' (tengine@1::Eltwise): parameter block of 8 bytes" in out
    assert "shift, power, scale keep(s) the default" in out


def _patched(tmp_path: Path, key: tuple[object, ...], at: int, value: int) -> Path:
    """mnist with the uint32 at `at` bytes into the object `key` (as the reader noted it) set to `value`."""
    model = read_tmfile(MNIST)
    offset, _size = model.raw["objects"][key]
    data = bytearray(MNIST.read_bytes())
    struct.pack_into("<I", data, offset + at, value)
    path = tmp_path / "patched.tmfile"
    path.write_bytes(bytes(data))
    return path


def _run(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main_validate([str(path)])
    return code, capsys.readouterr().out


def test_unknown_op_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(_patched(tmp_path, ("op", 0, CONV_0), 4, 999), capsys)  # TM2_Operator.operator_type
    assert code == 1
    assert "error [unknown_op] node 12 'Conv_0' (tengine::op999): op id 999 is not a Tengine op of the registry" in out


def test_tensor_index_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(_patched(tmp_path, ("n_in", 0, CONV_0), 4, 4000), capsys)  # the first input tensor index
    assert code == 1
    assert ("error [tmfile_reference] node 12 'Conv_0' (tengine@1::Convolution): input 0 names tensor 4000, "
            "out of range (20 tensors)") in out


def test_missing_parameter_block(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(_patched(tmp_path, ("op", 0, CONV_0), 8, 0), capsys)  # TM2_Operator.offset_t_param
    assert code == 1
    assert ("error [tmfile_params] node 12 'Conv_0' (tengine@1::Convolution): no parameter block; TM2_ConvParam "
            "needs 56 bytes") in out


def test_unreadable_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "cut.tmfile"
    cut.write_bytes(MNIST.read_bytes()[:300])
    assert main_validate([str(cut)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {cut}: ") and len(err.strip().splitlines()) == 1


def _with_node(model: Model, index: int, node: Node) -> Model:
    graph = model.graph
    nodes = tuple(node if n.index == index else n for n in graph.nodes)
    return replace(model, subgraphs=(replace(graph, nodes=nodes),))


def _errors(model: Model) -> list[Diagnostic]:
    return [d for d in validate_tmfile(model, current_registry()).diagnostics if d.is_error]


def test_value_out_of_its_allowed_set() -> None:
    model = read_tmfile(MNIST)
    pool = model.graph.nodes[15]
    (d,) = _errors(_with_node(model, 15, replace(pool, params={**pool.params, "alg": 5})))
    assert (d.check, d.node_index, d.node_name) == ("attr_allowed", 15, "MaxPool_6")


def test_input_count() -> None:
    model = read_tmfile(MNIST)
    fc = model.graph.nodes[17]
    (d,) = _errors(_with_node(model, 17, replace(fc, inputs=fc.inputs[:1])))
    assert d.check == "arity" and d.node_index == 17
    assert d.message == "1 inputs; FullyConnected takes 2 to 3"


def test_buffer_size_against_dims() -> None:
    model = read_tmfile(MNIST)
    graph = model.graph
    weight = graph.tensors[1]  # conv1.0.weight [8, 1, 3, 3] float32: 288 bytes
    buffers = tuple(replace(b, size=100, data=b.data[:100] if b.data else None) if b.index == weight.buffer else b
                    for b in graph.buffers)
    (d,) = _errors(replace(model, subgraphs=(replace(graph, buffers=buffers),)))
    assert d.check == "tmfile_buffer" and d.node_index == 1
    assert "tensor 1 'conv1.0.weight' [8, 1, 3, 3] float32 needs 288 bytes; buffer 1 holds 100" in d.message


def test_declared_dims_against_propagated_shapes() -> None:
    model = read_tmfile(MNIST)
    graph = model.graph
    tensors = tuple(replace(t, dims=(1, 8, 28, 27)) if t.index == 12 else t for t in graph.tensors)  # Conv_0's output
    errors = _errors(replace(model, subgraphs=(replace(graph, tensors=tensors),)))
    assert errors and errors[0].check == "shape_mismatch"
    assert (errors[0].node_index, errors[0].node_name) == (CONV_0, "Conv_0")
