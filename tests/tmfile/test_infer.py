"""`opset infer MODEL.tmfile -o OUT`: the inferred dims written into the tensors that declare none (a .tmfile
out), or the annotated tengine-domain view (a .onnx out); "protobuf decoding failed" before."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from opset.cli import main
from opset.tmfile import read_tmfile
from tests.tmfile.conftest import shared_model


def test_a_tmfile_gets_every_dim_it_did_not_declare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "squeezenet.tmfile"
    source.write_bytes(shared_model("squeezenet_v1.1_benchmark.tmfile"))
    before = read_tmfile(source).graph
    out = tmp_path / "inferred.tmfile"
    assert main(["infer", str(source), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"{out}: dims inferred for 40 tensor(s)"
    after = read_tmfile(out).graph
    assert [t.dims for t in before.tensors if t.dims is not None] == \
        [t.dims for t, b in zip(after.tensors, before.tensors, strict=True) if b.dims is not None]
    assert all(t.dims is not None for t in after.tensors)
    by_name = {t.name: t.dims for t in after.tensors}
    assert by_name["pool1"] == (1, 64, 56, 56) and by_name["prob"] == (1, 1000, 1, 1)
    assert main(["validate", str(out)]) == 0  # the dims written agree with the formulas


def test_the_onnx_view_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "mnist.tmfile"
    source.write_bytes(shared_model("mnist.tmfile"))
    out = tmp_path / "view.onnx"
    assert main(["infer", str(source), "-o", str(out)]) == 0
    view = onnx.load(str(out))
    assert view.opset_import[0].domain == "tengine"
    shapes = {vi.name: [d.dim_value for d in vi.type.tensor_type.shape.dim] for vi in view.graph.value_info}
    assert [1, 10] in shapes.values() or view.graph.output[0].type.tensor_type.shape.dim[1].dim_value == 10


def test_a_damaged_tmfile_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "cut.tmfile"
    cut.write_bytes(shared_model("mnist.tmfile")[:200])
    assert main(["infer", str(cut), "-o", str(tmp_path / "x.tmfile")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {cut}: ")
