"""`opset convert MODEL.onnx MODEL.tmfile`: ai.onnx to Tengine through the same `maps_to`, proved by running both
sides (onnxruntime on the ONNX, the reference kernels on the .tmfile, and Tengine itself where it is built), by the
round trip back to ONNX, and by an independent reading of the file the converter writes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conformance.models.runner import ModelRunner
from conformance.registry import current_registry
from opset.cli import main
from opset.tmfile import read_tmfile, write_tmfile
from opset.tmfile.convert import convert
from opset.tmfile.from_onnx import prepared, to_tmfile
from opset.tmfile.onnx_view import to_onnx
from tests.helpers.onnx_nets import small_net
from tests.helpers.tmfile import independent_reading
from tests.helpers.torch_nets import NAMES

ort = pytest.importorskip("onnxruntime")
rng = np.random.default_rng(11)
LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
ORACLE = os.environ.get("OPSET_TENGINE_ORACLE")  # tests/tengine_oracle/tm_oracle built against Tengine (README there)


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, onnx.ModelProto]:
    folder = tmp_path_factory.mktemp("from_onnx")
    source = folder / "small.onnx"
    net = small_net()  # each call draws new weights
    onnx.save_model(net, str(source))
    out = folder / "small.tmfile"
    assert main(["convert", str(source), str(out)]) == 0
    return out, net


def test_the_ops_and_the_fused_activations(converted: tuple[Path, onnx.ModelProto]) -> None:
    path, _ = converted
    model = read_tmfile(path)
    ops = [n.op_name for n in model.graph.nodes if n.op_name not in (None, "Const")]
    assert ops == ["Convolution", "Convolution", "BatchNormalization", "Eltwise", "Pooling", "Convolution", "Concat",
                   "Pooling", "Flatten", "FullyConnected", "SoftMax"]
    convs = [n.params for n in model.graph.nodes if n.op_name == "Convolution"]
    assert [c["activation"] for c in convs] == [0, 6, -1]  # Relu and Clip(0, 6) fused, as Tengine's converter does
    assert [(c["input_channel"], c["output_channel"], c["group"]) for c in convs] == [(3, 8, 1), (8, 8, 8), (8, 4, 1)]
    # Tengine's writer order: constants first, then the input, then the computation
    kinds = ["Const" if n.op_name == "Const" else "InputOp" if n.op_name is None else "op" for n in model.graph.nodes]
    assert kinds == sorted(kinds, key=["Const", "InputOp", "op"].index)


def test_the_file_validates_clean(converted: tuple[Path, onnx.ModelProto], capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = converted
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("0 error(s), 0 warning(s)")


def test_inspect_equals_an_independent_reading(converted: tuple[Path, onnx.ModelProto],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = converted
    assert main(["inspect", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    read = independent_reading(path.read_bytes())
    assert (shown["nodes"], shown["tensors"], shown["buffers"]) == (
        len(read["nodes"]), len(read["tensors"]), len(read["buffers"]))
    assert shown["buffers_with_data"] == sum(b["data"] for b in read["buffers"])
    assert shown["inputs"] == read["inputs"] and shown["outputs"] == read["outputs"]
    renamed = {"global_pooling": "global"}  # inspect names fields by attribute, tm2_format.h by field
    for node, mine in zip(shown["node_list"], read["nodes"], strict=True):
        assert (node["name"], node["op_id"]) == (mine["name"], mine["op_id"])
        assert [t["index"] for t in node["inputs"]] == mine["inputs"]
        assert [t["index"] for t in node["outputs"]] == mine["outputs"]
        params = {renamed.get(k, k): v for k, v in node["params"].items()}
        for field, value in mine["params"].items():
            assert params[field] == pytest.approx(value), (node["name"], field)
        for t, tensor in zip(node["inputs"] + node["outputs"], [read["tensors"][i] for i in mine["inputs"]
                                                                + mine["outputs"]], strict=True):
            assert (t["name"], t["dims"]) == (tensor["name"], tensor["dims"])


def _feeds(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {vi.name: rng.standard_normal([d.dim_value for d in vi.type.tensor_type.shape.dim]).astype(np.float32)
            for vi in model.graph.input}


def _ort(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, feeds))


def _both_sides(model: onnx.ModelProto) -> tuple[float, float, list[str], list[str]]:
    """(max |opset run on the .tmfile - onnxruntime on the ONNX|, the same for the .tmfile converted back to ONNX,
    the prepared ONNX ops, the ops converted back)."""
    registry = current_registry()
    result = to_tmfile(model, registry)
    assert result.model is not None, [str(u) for u in result.unconverted]
    tmfile = read_tmfile(write_tmfile(result.model, registry), registry)
    ready = prepared(model)
    feeds = _feeds(ready)
    want = _ort(ready, feeds)
    ours = list(ModelRunner(to_onnx(tmfile, registry).model).run(feeds).values())
    back = convert(tmfile, registry).model
    assert back is not None
    again = _ort(back, feeds)
    diff = max(float(np.abs(a - b).max()) for a, b in zip(ours, want, strict=True))
    diff_back = max(float(np.abs(a - b).max()) for a, b in zip(again, want, strict=True))
    return diff, diff_back, [n.op_type for n in ready.graph.node], [n.op_type for n in back.graph.node]


def test_both_sides_agree_and_the_round_trip_gives_the_same_graph() -> None:
    diff, diff_back, ops, ops_back = _both_sides(small_net())
    assert diff < 1e-5 and diff_back < 1e-5
    assert ops_back == ops  # the same ops in the same order: Tengine's fused activations come back as nodes


def test_light_squeezenet_converts_and_runs() -> None:
    diff, diff_back, ops, ops_back = _both_sides(_randomised(onnx.load(str(LIGHT / "light_squeezenet.onnx"))))
    assert diff < 1e-4 and diff_back < 1e-4 and ops_back == ops


def _randomised(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model's float weights replaced by random ones (onnx's light models store constant fills), variances of
    BatchNormalization kept positive."""
    ready = prepared(model)
    variances = {n.input[4] for n in ready.graph.node if n.op_type == "BatchNormalization"}
    weights = []
    for t in ready.graph.initializer:
        value = numpy_helper.to_array(t)
        if value.dtype == np.float32 and value.size > 1:
            fan_in = int(np.prod(value.shape[1:])) if value.ndim > 1 else value.size
            value = (rng.standard_normal(value.shape) / np.sqrt(fan_in)).astype(np.float32)
            if t.name in variances:
                value = np.abs(value) + 0.5
        weights.append(numpy_helper.from_array(value, t.name))
    del ready.graph.initializer[:]
    ready.graph.initializer.extend(weights)
    return ready


@pytest.mark.slow
@pytest.mark.parametrize("name", ["light_bvlc_alexnet", "light_densenet121", "light_inception_v1", "light_inception_v2",
                                  "light_resnet50", "light_shufflenet", "light_vgg19", "light_zfnet512"])
def test_light_models_convert_and_run(name: str) -> None:
    diff, diff_back, ops, ops_back = _both_sides(_randomised(onnx.load(str(LIGHT / f"{name}.onnx"))))
    assert diff < 1e-3 and diff_back < 1e-3 and ops_back == ops


@pytest.mark.parametrize(("op", "extra", "becomes"), [("AveragePool", {}, "GlobalAveragePool"),
                                                      ("MaxPool", {}, "GlobalMaxPool"),
                                                      ("AveragePool", {"count_include_pad": 1}, "AveragePool")])
def test_a_pool_whose_window_covers_the_plane_is_global(op: str, extra: dict[str, int], becomes: str) -> None:
    """inception_v1's last pool: a 7x7 window with end pads over a 6x6 plane averages the 36 values (pads not
    counted): Tengine's global pooling. Counted pads make it another value: it stays, and has no Tengine form."""
    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"], kernel_shape=[7, 7], pads=[0, 0, 1, 1], **extra)],
                              "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    ready = prepared(model)
    assert [n.op_type for n in ready.graph.node] == [becomes]
    feeds = _feeds(ready)
    np.testing.assert_allclose(_ort(ready, feeds)[0], _ort(model, feeds)[0], rtol=1e-6)
    assert (to_tmfile(model, current_registry()).model is not None) == (becomes != op)


def test_a_model_without_a_tengine_op_is_refused_with_the_nodes(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    graph = helper.make_graph([helper.make_node("Einsum", ["x", "x"], ["y"], "e", equation="ij,jk->ik")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])])
    source = tmp_path / "einsum.onnx"
    onnx.save_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]), str(source))
    assert main(["convert", str(source), str(tmp_path / "e.tmfile")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == f"{source}: unconverted node 0 'e' (Einsum): no Tengine op's mapping gives this node"
    assert err[-1].startswith("error:") and "nothing written" in err[-1]
    assert not (tmp_path / "e.tmfile").exists()


@pytest.mark.parametrize(("training", "bias"), [(np.array(True), [1]), (np.array(False), [1]), (None, [0])])
def test_only_a_dropout_that_cannot_train_is_dropped(training: np.ndarray | None, bias: list[int], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A training_mode that is a constant true keeps the Dropout, which has no Tengine op; a constant false drops it.
    A Conv's bias (also input 2) is never read as a training flag: an empty one raised an IndexError here, it is now
    the located error of a node no mapping takes."""
    nodes = [helper.make_node("Dropout", ["x", "", "t" if training is not None else ""], ["y"], "d"),
             helper.make_node("Conv", ["y", "w", "b"], ["z"], "c")]
    constants = [numpy_helper.from_array(np.ones([1, 1, 1, 1], np.float32), "w"),
                 numpy_helper.from_array(np.zeros(bias, np.float32), "b")]
    if training is not None:
        constants.append(numpy_helper.from_array(training, "t"))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 1, 4, 4])], constants)
    source = tmp_path / "dropout.onnx"
    onnx.save_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(source))
    code = main(["convert", str(source), str(tmp_path / "d.tmfile")])
    err = capsys.readouterr().err
    if training is not None and not training:
        assert code == 0, err
    elif training is not None:
        assert code == 1 and "unconverted node 0 'd' (Dropout)" in err, err
    else:
        assert code == 1 and "(Conv)" in err and "Traceback" not in err, err


def test_a_damaged_onnx_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "cut.onnx"
    source.write_bytes(small_net().SerializeToString()[:100])
    assert main(["convert", str(source), str(tmp_path / "x.tmfile")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")


def _tengine_run(path: Path, feeds: dict[str, np.ndarray], folder: Path) -> list[np.ndarray]:
    """Tengine itself on the file: its loader, shape inference and kernels (tests/tengine_oracle)."""
    assert ORACLE is not None
    args = [ORACLE, str(path), str(folder)]
    for k, value in enumerate(feeds.values()):
        raw = folder / f"input_{k}.bin"
        value.astype("<f4").tofile(raw)
        args += [str(raw), ",".join(str(d) for d in value.shape)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    shapes = [line.split("\t") for line in done.stdout.splitlines() if line.startswith("output\t")]
    return [np.fromfile(folder / f"output_{k}.bin", "<f4").reshape([int(d) for d in dims.split(",")])
            for k, _name, dims in (tuple(s[1:]) for s in shapes)]


@pytest.mark.skipif(ORACLE is None, reason="OPSET_TENGINE_ORACLE names no built tm_oracle (tests/tengine_oracle)")
def test_tengine_itself_loads_and_runs_the_converted_file(converted: tuple[Path, onnx.ModelProto],
                                                         tmp_path: Path) -> None:
    path, source = converted
    feeds = _feeds(source)
    (got,) = _tengine_run(path, feeds, tmp_path)
    (want,) = _ort(source, feeds)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_torchvision_like_exports_convert_and_run(name: str, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tests.helpers.torch_nets import export  # imports torch
    diff, diff_back, ops, ops_back = _both_sides(onnx.load(str(export(name, tmp_path))))
    assert diff < 1e-4 and diff_back < 1e-4 and ops_back == ops


TENGINE_LRN = {"light_zfnet512": 2e-3}  # Tengine's reference LRN kernel is not ONNX's (tests/tengine_oracle)


@pytest.mark.slow
@pytest.mark.skipif(ORACLE is None, reason="OPSET_TENGINE_ORACLE names no built tm_oracle (tests/tengine_oracle)")
@pytest.mark.parametrize("name", ["light_bvlc_alexnet", "light_densenet121", "light_inception_v1", "light_inception_v2",
                                  "light_resnet50", "light_shufflenet", "light_squeezenet", "light_vgg19",
                                  "light_zfnet512"])
def test_tengine_runs_the_converted_light_models(name: str, tmp_path: Path) -> None:
    registry = current_registry()
    model = _randomised(onnx.load(str(LIGHT / f"{name}.onnx")))
    result = to_tmfile(model, registry)
    assert result.model is not None
    path = tmp_path / f"{name}.tmfile"
    path.write_bytes(write_tmfile(result.model, registry))
    ready = prepared(model)
    feeds = _feeds(ready)
    (got,), (want,) = _tengine_run(path, feeds, tmp_path), _ort(ready, feeds)
    assert float(np.abs(got - want).max()) < TENGINE_LRN.get(name, 1e-5)
