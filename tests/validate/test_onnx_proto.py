"""Reading models with onnx's protobuf classes without importing onnx (`opset.onnx_proto`, `opset.validate.reading`).

The classes must be onnx's own (a model read before `import onnx` is an `onnx.ModelProto` after it), and a model must
read as `onnx.load` reads it: external data resolved next to the file, text formats by their extension, every
failure a located `ModelReadError`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from opset.tensor_data import raw_layout, typed_field
from opset.validate import check_model
from opset.validate.reading import ModelReadError, read_model

ROOT = Path(__file__).resolve().parents[2]


def test_the_classes_are_onnx_own_when_read_before_onnx_is_imported() -> None:
    code = ("import sys\nfrom opset.onnx_proto import pb\nassert 'onnx' not in sys.modules, 'onnx was imported'\n"
            "m = pb.ModelProto(ir_version=9)\nimport onnx\n"
            "assert pb.ModelProto is onnx.ModelProto and isinstance(m, onnx.ModelProto)\n"
            "assert pb.TensorProto.FLOAT == onnx.TensorProto.FLOAT and pb.IR_VERSION == onnx.IR_VERSION\n"
            "onnx.checker.check_model(onnx.helper.make_model(onnx.helper.make_graph([], 'g', [], [])))\n"
            "print('same')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "same", done.stderr[-2000:]


def _model_with_weight() -> onnx.ModelProto:
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "W")
    graph = helper.make_graph([helper.make_node("MatMul", ["X", "W"], ["Y"])], "g",
                              [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 4])], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_external_data_is_read_as_onnx_load_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save_model(_model_with_weight(), str(path), save_as_external_data=True, location="w.bin", size_threshold=0)
    read = read_model(path)
    assert read == onnx.load(str(path))
    assert read.graph.initializer[0].data_location == TensorProto.DEFAULT
    assert read_model(path, load_external_data=False).graph.initializer[0].data_location == TensorProto.EXTERNAL
    assert check_model(read).diagnostics == []


def test_an_external_tensor_without_its_file_or_location_is_a_read_error(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save_model(_model_with_weight(), str(path), save_as_external_data=True, location="w.bin", size_threshold=0)
    (tmp_path / "w.bin").unlink()
    with pytest.raises(ModelReadError, match="cannot read the model"):
        read_model(path)
    nowhere = _model_with_weight()
    nowhere.graph.initializer[0].data_location = TensorProto.EXTERNAL  # no location entry at all
    nowhere.graph.initializer[0].ClearField("raw_data")
    onnx.save_model(nowhere, str(path))
    with pytest.raises(ModelReadError, match="cannot read the model"):
        read_model(path)


@pytest.mark.parametrize("suffix", [".textproto", ".json"])
def test_text_formats_are_read_by_their_extension(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"m{suffix}"
    onnx.save_model(_model_with_weight(), str(path))
    assert read_model(path) == onnx.load(str(path))


def test_bytes_that_are_no_model_are_a_read_error(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    path.write_bytes(_model_with_weight().SerializeToString() + b"\xff\xff\xff")
    with pytest.raises(ModelReadError, match="not an ONNX model"):
        read_model(path)


def test_the_stored_layout_of_every_element_type_is_onnx_helpers() -> None:
    packed = {TensorProto.INT4, TensorProto.UINT4, TensorProto.FLOAT4E2M1, TensorProto.INT2, TensorProto.UINT2,
              TensorProto.FLOAT6E2M3, TensorProto.FLOAT6E3M2}
    for name, code in TensorProto.DataType.items():
        if code == TensorProto.UNDEFINED:
            continue
        assert typed_field(code) == helper.tensor_dtype_to_field(code), name
        if code != TensorProto.STRING and code not in packed:
            assert raw_layout(code) == (1, helper.tensor_dtype_to_np_dtype(code).itemsize), name


def test_the_text_extensions_are_onnx_serialization_registrys() -> None:
    from onnx import serialization

    from opset.validate.reading import _TEXT_FORMATS

    text = {ext for name, serializer in serialization.registry._serializers.items() if name != "protobuf"
            for ext in serializer.file_extensions}
    assert set(_TEXT_FORMATS) == text


@pytest.mark.parametrize("suffix", [".onnx", ".json"])
def test_a_model_is_written_as_onnx_save_model_writes_it(tmp_path: Path, suffix: str) -> None:
    from opset.validate.reading import write_model

    ours, theirs = tmp_path / f"ours{suffix}", tmp_path / f"theirs{suffix}"
    write_model(_model_with_weight(), ours)
    onnx.save_model(_model_with_weight(), str(theirs))
    assert ours.read_bytes() == theirs.read_bytes()


@pytest.mark.parametrize(("suffix", "text"), [(".json", '{"graph": 1'), (".textproto", "not a text proto"),
                                              (".onnxtxt", "garbage <")])
def test_a_text_model_its_parser_refuses_is_a_read_error(tmp_path: Path, suffix: str, text: str) -> None:
    path = tmp_path / f"m{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelReadError, match="cannot read the model"):
        read_model(path)
