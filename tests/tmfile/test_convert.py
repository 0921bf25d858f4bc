"""`opset convert MODEL.tmfile MODEL.onnx`: Tengine ops to ai.onnx through the registry's `maps_to`.

The converted models pass onnx.checker (full check) and onnxruntime computes what `opset run` computes on the
`.tmfile`: mnist with its real weights, and benchmark graphs with their zero buffers replaced by random weights
(so every mapped pooling flavour, fused activation, concat and upsample is exercised on data that shows errors)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import onnx
import pytest

from conformance.models.runner import ModelRunner
from conformance.registry import current_registry
from opset.tmfile import Model, read_tmfile
from opset.tmfile.convert import convert
from opset.tmfile.convert_cli import main_convert
from opset.tmfile.onnx_view import ELEMENT_SIZES, to_onnx
from tests.helpers.digits import mnist_input
from tests.helpers.tmfile import tmfile_dir

ort = pytest.importorskip("onnxruntime")

DATA = tmfile_dir()  # $OPSET_TMFILE_DIR, else ../shared/data/tmfile
MNIST = DATA / "mnist.tmfile"

pytestmark = pytest.mark.skipif(not MNIST.exists(), reason=f"the shared Tengine models are not at {DATA}")


def _session(model: onnx.ModelProto) -> object:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def _converted(model: Model) -> onnx.ModelProto:
    result = convert(model, current_registry())
    assert result.model is not None, [str(u) for u in result.unmapped]
    onnx.checker.check_model(result.model, full_check=True)
    assert all(n.domain in ("", "ai.onnx") for n in result.model.graph.node)
    return result.model


def test_mnist_converts_and_onnxruntime_agrees() -> None:
    model = read_tmfile(MNIST)
    onnx_model = _converted(model)
    ours = ModelRunner(to_onnx(model, current_registry()).model)
    session = _session(onnx_model)
    for digit in range(10):
        x = mnist_input(digit)
        expected = ours.run({"images": x})["output"]
        (got,) = session.run(None, {"images": x})  # type: ignore[attr-defined]
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    # the fused ReLU of each Convolution became its own node (and the ReLU node of slope 0 a Relu too)
    assert [n.op_type for n in onnx_model.graph.node].count("Relu") == 4


def _random_weights(model: Model, seed: int) -> Model:
    """The model with every data-less buffer filled with random float32 values (benchmarks store none)."""
    rng = np.random.default_rng(seed)
    graph = model.graph
    sizes = {t.buffer: t for t in graph.tensors if t.kind == 2}
    buffers = []
    for b in graph.buffers:
        tensor = sizes.get(b.index)
        if b.data is None and tensor is not None and tensor.data_type == 0:
            count = b.size // ELEMENT_SIZES[0]
            data = (rng.standard_normal(count) * 0.1).astype("<f4").tobytes()
            buffers.append(replace(b, data=data))
        else:
            buffers.append(b)
    return replace(model, subgraphs=(replace(graph, buffers=tuple(buffers)), *model.subgraphs[1:]))


@pytest.mark.parametrize("name", ["squeezenet_v1.1_benchmark", "resnet18_benchmark",  # the file stays under 10 s
                                  pytest.param("mobilenet_benchmark", marks=pytest.mark.slow),
                                  pytest.param("yolov3_tiny_benchmark", marks=pytest.mark.slow)])
def test_benchmark_with_random_weights_agrees(name: str) -> None:
    model = _random_weights(read_tmfile(DATA / f"{name}.tmfile"), seed=1)
    onnx_model = _converted(model)
    ours = ModelRunner(to_onnx(model, current_registry()).model)
    (name_in,) = ours.input_names
    (declared,) = [list(t.dims or ()) for t in model.graph.tensors if t.kind == 3]
    x = np.random.default_rng(2).standard_normal(declared).astype(np.float32)
    expected = ours.run({name_in: x})
    got = _session(onnx_model).run(None, {name_in: x})  # type: ignore[attr-defined]
    assert len(got) == len(expected)
    for value, (out_name, want) in zip(got, expected.items(), strict=True):
        assert np.std(want) > 0, out_name  # random weights: the comparison sees something
        # float32 sums in another order: errors grow with the values (yolov3's reach thousands), so the
        # tolerance is relative to the output's scale
        np.testing.assert_allclose(value, want, rtol=1e-4, atol=1e-5 * float(np.abs(want).max()), err_msg=out_name)


def test_cli_writes_a_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mnist.onnx"
    assert main_convert([str(MNIST), str(out)]) == 0
    assert "ai.onnx nodes at opset" in capsys.readouterr().out
    onnx.checker.check_model(onnx.load(str(out)), full_check=True)


def test_cli_lists_unmapped_ops_with_the_yaml_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mssd.onnx"
    assert main_convert([str(DATA / "mssd_benchmark.tmfile"), str(out)]) == 1
    err = capsys.readouterr().err
    detection = current_registry().resolve("tengine", "DetectionOutput", 1)
    assert f"(DetectionOutput): {detection.unmapped}" in err
    assert "(PriorBox)" not in err  # folded into a constant by the reference kernel
    assert err.strip().splitlines()[-1].startswith("error:") and "nothing written" in err
    assert not out.exists()


def test_unreadable_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "cut.tmfile"
    bad.write_bytes(MNIST.read_bytes()[:50])
    assert main_convert([str(bad), str(tmp_path / "x.onnx")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
