"""A uint8-quantised Tengine model: its int8/uint8/int32 tensors with quantisation parameters are seen as the real
values they encode (`scale * (q - zero_point)`), per tensor or per output channel.

The same net is written twice, once quantised and once with float32 tensors holding the dequantised values; the
quantised one must validate clean against the ops' float types, and run and convert exactly as the float one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from conformance.models.cli import load_model
from conformance.models.runner import ModelRunner
from conformance.registry import current_registry
from opset.tmfile import read_tmfile, write_tmfile
from opset.tmfile.convert import convert
from opset.tmfile.model import INPUT_OP_ID, Buffer, Model, Node, QuantParam, Subgraph, Tensor
from opset.validate.cli import main_validate

FLOAT32, INT8, UINT8, INT32 = 0, 2, 3, 4
VAR, CONST, INPUT = 1, 2, 3
rng = np.random.default_rng(1207)

X_Q = QuantParam(128, 0.125, 8)
W_CONV = [QuantParam(120, 0.015625, 8), QuantParam(131, 0.03125, 8)]  # per output channel
CONV_Q = QuantParam(10, 0.25, 8)
W_DECONV = QuantParam(127, 0.0078125, 8)
Y_Q = QuantParam(0, 0.0625, 8)

W_CONV_DATA = rng.integers(0, 256, (2, 1, 3, 3), dtype=np.uint8)
B_CONV_DATA = rng.integers(-200, 200, (2,), dtype=np.int32)  # int32 bias, scale = input scale * weight scale
W_DECONV_DATA = rng.integers(0, 256, (2, 1, 2, 2), dtype=np.uint8)

CONV = {"kernel_h": 3, "kernel_w": 3, "pad_h0": 1, "pad_w0": 1, "pad_h1": 1, "pad_w1": 1, "input_channel": 1,
        "output_channel": 2, "activation": 0}
DECONV = {"kernel_h": 2, "kernel_w": 2, "stride_h": 2, "stride_w": 2, "num_output": 1, "activation": 6}


def _dequantised(q: np.ndarray, params: list[QuantParam]) -> np.ndarray:
    shape = (len(params),) + (1,) * (q.ndim - 1) if len(params) > 1 else ()
    scale = np.array([p.scale for p in params], np.float64).reshape(shape)
    zero = np.array([p.zero_point for p in params], np.float64).reshape(shape)
    return ((q.astype(np.float64) - zero) * scale).astype(np.float32)


def _net(quantised: bool) -> Model:
    bias_params = [QuantParam(0, X_Q.scale * w.scale, 32) for w in W_CONV]
    consts = [(W_CONV_DATA, W_CONV, UINT8), (B_CONV_DATA, bias_params, INT32), (W_DECONV_DATA, [W_DECONV], UINT8)]
    buffers = tuple(Buffer(k, len(b), b) for k, b in enumerate(
        (q.tobytes() if quantised else _dequantised(q, params).tobytes()) for q, params, _ in consts))

    def tensor(index: int, name: str, dims: tuple[int, ...], kind: int, dtype: int, params: list[QuantParam],
               buffer: int = 0) -> Tensor:
        return Tensor(index, name, buffer, dims, 0, kind, dtype if quantised else FLOAT32,
                      tuple(params) if quantised else ())

    tensors = (
        tensor(0, "x", (1, 1, 6, 6), INPUT, UINT8, [X_Q]),
        tensor(1, "w_conv", (2, 1, 3, 3), CONST, UINT8, W_CONV, 0),
        tensor(2, "b_conv", (2,), CONST, INT32, [QuantParam(0, X_Q.scale * w.scale, 32) for w in W_CONV], 1),
        tensor(3, "conv", (1, 2, 6, 6), VAR, UINT8, [CONV_Q]),
        tensor(4, "w_deconv", (2, 1, 2, 2), CONST, UINT8, [W_DECONV], 2),
        tensor(5, "y", (1, 1, 12, 12), VAR, UINT8, [Y_Q]),
    )
    nodes = (
        Node(0, "x", INPUT_OP_ID, 1, None, {}, None, (), (0,)),
        Node(1, "w_conv", 4, 1, "Const", {}, None, (), (1,)),
        Node(2, "b_conv", 4, 1, "Const", {}, None, (), (2,)),
        Node(3, "w_deconv", 4, 1, "Const", {}, None, (), (4,)),
        Node(4, "conv", 5, 1, "Convolution", CONV, None, (0, 1, 2), (3,)),
        Node(5, "up", 6, 1, "Deconvolution", DECONV, None, (3, 4), (5,)),
    )
    return Model((2, 0, 0), 3, 0, "quantised" if quantised else "float", (Subgraph(0, 0, 0, 0, (0,), (5,), nodes,
                                                                                  tensors, buffers, None),))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("quantised")
    paths = {}
    for name, quantised in (("uint8", True), ("float", False)):
        paths[name] = folder / f"{name}.tmfile"
        paths[name].write_bytes(write_tmfile(_net(quantised)))
    return paths


def test_the_ops_are_the_registry_ones(files: dict[str, Path]) -> None:
    ops = [n.op_name for n in read_tmfile(files["uint8"]).graph.nodes]
    assert ops == [None, "Const", "Const", "Const", "Convolution", "Deconvolution"]  # None: InputOp


def test_a_uint8_model_validates_clean(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main_validate([str(files["uint8"])]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


def test_it_runs_as_the_real_values_its_integers_encode(files: dict[str, Path]) -> None:
    x = rng.standard_normal((1, 1, 6, 6)).astype(np.float32)
    quantised = ModelRunner(load_model(files["uint8"])).run({"x": x})
    plain = ModelRunner(load_model(files["float"])).run({"x": x})
    assert quantised["y"].dtype == np.float32 and quantised["y"].shape == (1, 1, 12, 12)
    np.testing.assert_allclose(quantised["y"], plain["y"], rtol=1e-6, atol=1e-6)
    assert np.any(quantised["y"] != 0)


def test_the_dequantised_constants_are_per_channel(files: dict[str, Path]) -> None:
    view = load_model(files["uint8"])
    weights = {t.name: onnx.numpy_helper.to_array(t) for t in view.graph.initializer}
    np.testing.assert_array_equal(weights["w_conv"], _dequantised(W_CONV_DATA, W_CONV))
    assert weights["w_conv"][0, 0, 0, 0] == np.float32((int(W_CONV_DATA[0, 0, 0, 0]) - 120) * 0.015625)
    assert weights["w_conv"][1, 0, 0, 0] == np.float32((int(W_CONV_DATA[1, 0, 0, 0]) - 131) * 0.03125)


def test_it_converts_to_the_same_onnx_model_as_the_float_net(files: dict[str, Path]) -> None:
    registry = current_registry()
    quantised = convert(read_tmfile(files["uint8"]), registry).model
    plain = convert(read_tmfile(files["float"]), registry).model
    assert quantised is not None and plain is not None
    onnx.checker.check_model(quantised, full_check=True)
    assert [n.op_type for n in quantised.graph.node] == [n.op_type for n in plain.graph.node]
    for a, b in zip(quantised.graph.initializer, plain.graph.initializer, strict=True):
        np.testing.assert_allclose(onnx.numpy_helper.to_array(a), onnx.numpy_helper.to_array(b), rtol=1e-6)


def test_onnxruntime_runs_the_conversion_as_opset_run_runs_the_file(files: dict[str, Path]) -> None:
    ort = pytest.importorskip("onnxruntime")
    converted = convert(read_tmfile(files["uint8"]), current_registry()).model
    assert converted is not None
    assert [n.op_type for n in converted.graph.node] == ["Conv", "Relu", "ConvTranspose", "Clip"]
    session = ort.InferenceSession(converted.SerializeToString(), providers=["CPUExecutionProvider"])
    x = (4 * rng.standard_normal((1, 1, 6, 6))).astype(np.float32)
    (got,) = session.run(["y"], {"x": x})
    want = ModelRunner(load_model(files["uint8"])).run({"x": x})["y"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert 0 < np.count_nonzero(want == 6) < want.size  # the fused ReLU6 clips some values, not all


def test_quantisation_parameters_that_fit_no_axis_are_an_error(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    model = _net(True)
    g = model.graph
    three = Tensor(1, "w_conv", 0, (2, 1, 3, 3), 0, CONST, UINT8, (*W_CONV, W_CONV[0]))
    bad = Model(model.version, model.orig_format, model.sub_format, model.name,
                (Subgraph(g.index, g.subgraph_id, g.graph_layout, g.model_layout, g.inputs, g.outputs, g.nodes,
                          (g.tensors[0], three, *g.tensors[2:]), g.buffers, g.name),))
    path = tmp_path / "bad.tmfile"
    path.write_bytes(write_tmfile(bad))
    assert main_validate([str(path)]) in (1, 2)
    printed = capsys.readouterr()
    assert "3 quantisation parameters for dims [2, 1, 3, 3]" in printed.out + printed.err
