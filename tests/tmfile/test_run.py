"""`opset run MODEL.tmfile`: a Tengine model on the reference kernels through its tengine-domain ONNX view.

mnist.tmfile (real weights) must read drawn digits as a plausible MNIST net does; the benchmark graphs (zero
weights) must run end to end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conformance.models.cli import load_model, main_run
from conformance.models.runner import ModelRunner
from conformance.registry import current_registry
from tests.helpers.digits import mnist_input
from tests.helpers.tmfile import tmfile_dir

DATA = tmfile_dir()  # $OPSET_TMFILE_DIR, else ../shared/data/tmfile
MNIST = DATA / "mnist.tmfile"

pytestmark = pytest.mark.skipif(not MNIST.exists(), reason=f"the shared Tengine models are not at {DATA}")


@pytest.fixture(scope="module")
def mnist() -> ModelRunner:
    return ModelRunner(load_model(MNIST))


def test_mnist_reads_drawn_digits(mnist: ModelRunner) -> None:
    predicted = [int(np.argmax(mnist.run({"images": mnist_input(d)})["output"])) for d in range(10)]
    right = sum(p == d for d, p in enumerate(predicted))
    assert right >= 8, f"drawn digits 0-9 read as {predicted}"


def test_mnist_ends_in_logits_not_probabilities(mnist: ModelRunner) -> None:
    """The net ends with FullyConnected (no SoftMax): its outputs are scores, and a softmax over them is sure of the
    digit drawn."""
    nodes = mnist.model.graph.node
    assert nodes[-1].op_type == "FullyConnected"
    scores = mnist.run({"images": mnist_input(3)})["output"]
    assert scores.shape == (1, 10) and scores.dtype == np.float32
    probs = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    assert probs[0, 3] > 0.5


def test_opset_run_cli_writes_the_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "seven.npy"
    np.save(image, mnist_input(7))
    assert main_run([str(MNIST), "--input", f"images={image}", "--output-dir", str(tmp_path)]) == 0
    assert "output output: float32[1, 10]" in capsys.readouterr().out
    assert int(np.argmax(np.load(tmp_path / "output.npy"))) == 7


@pytest.mark.parametrize("name", ["resnet18_benchmark", "squeezenet_v1.1_benchmark", "mobilenet_benchmark"])
def test_benchmark_graph_runs(name: str) -> None:
    runner = ModelRunner(load_model(DATA / f"{name}.tmfile"))
    declared = {i.name: [d.dim_value for d in i.type.tensor_type.shape.dim] for i in runner.model.graph.input}
    feeds = {n: np.random.default_rng(0).standard_normal(declared[n]).astype(np.float32)  # squeezenet's is 227x227
             for n in runner.input_names}
    outputs = runner.run(feeds)
    (value,) = outputs.values()
    assert np.all(np.isfinite(value))
    if runner.model.graph.node[-1].op_type == "SoftMax":  # probabilities over the classes (axis 1)
        assert np.allclose(value.sum(axis=1), 1.0, atol=1e-5) and value.min() >= 0


def test_unreadable_tmfile_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "cut.tmfile"
    bad.write_bytes(MNIST.read_bytes()[:100])
    assert main_run([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("opset run: cannot read") and len(err.strip().splitlines()) == 1


def test_declared_dims_never_size_an_allocation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A data-less constant claiming 2**40 elements: exit 2 with one line, nothing allocated."""
    from dataclasses import replace

    from opset.tmfile import read_tmfile, write_tmfile

    model = read_tmfile(MNIST)
    graph = model.graph
    weight = graph.tensors[7]  # dense.0.weight
    tensors = tuple(replace(t, dims=(1 << 20, 1 << 20)) if t.index == 7 else t for t in graph.tensors)
    buffers = tuple(replace(b, data=None) if b.index == weight.buffer else b for b in graph.buffers)
    broken = replace(model, subgraphs=(replace(graph, tensors=tensors, buffers=buffers),), raw={})
    path = tmp_path / "huge.tmfile"
    path.write_bytes(write_tmfile(broken))
    assert main_run([str(path), "--output-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "node 7 'dense.0.weight' (Const): tensor 7 [1048576, 1048576] needs" in err[0]


def test_names_that_are_not_utf8_still_run(tmp_path: Path) -> None:
    from dataclasses import replace

    from opset.tmfile import read_tmfile
    from opset.tmfile.onnx_view import to_onnx

    model = read_tmfile(MNIST)
    graph = model.graph
    nodes = tuple(replace(n, name="conv\udce9") if n.index == 12 else n for n in graph.nodes)
    view = to_onnx(replace(model, subgraphs=(replace(graph, nodes=nodes),), raw={}), current_registry()).model
    assert view.graph.node[0].name == "conv\\xe9"
    assert ModelRunner(view).run({"images": mnist_input(1)})["output"].shape == (1, 10)
