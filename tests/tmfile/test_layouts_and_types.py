"""How the view reads what Tengine 1.x's tools stored: NHWC graphs (TensorFlow and TFLite models, weights OHWI),
float16 models that keep some parameters in float32, the int32 bias Tengine's calibration tool stores without
scales, and int8 activations whose scales were found at run time. Each hand-built model is checked against the
same net written plainly (NCHW, float32): it validates clean and computes the same values."""

from __future__ import annotations

import numpy as np

from conformance.models import run_model
from conformance.registry import current_registry
from opset.tmfile import read_tmfile, write_tmfile
from opset.tmfile.model import INPUT_OP_ID, Buffer, Model, Node, QuantParam, Subgraph, Tensor
from opset.tmfile.onnx_view import to_onnx
from opset.tmfile.validate import validate_tmfile

FLOAT32, FLOAT16, INT8, INT32 = 0, 1, 2, 4
VAR, CONST, INPUT = 1, 2, 3
CONV, PRELU, POOL = 5, 17, 16
rng = np.random.default_rng(4242)

X = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)  # NCHW
W = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)  # OIHW
B = rng.standard_normal(3).astype(np.float32)
CONV_PARAMS = {"kernel_h": 3, "kernel_w": 3, "pad_h0": -1, "pad_w0": -1, "pad_h1": -1, "pad_w1": -1,
               "input_channel": 2, "output_channel": 3, "activation": 0}
POOL_PARAMS = {"alg": 0, "kernel_h": 2, "kernel_w": 2, "stride_h": 2, "stride_w": 2}


def _model(nhwc: bool) -> Model:
    """input -> Convolution (SAME, ReLU) -> Pooling (2x2 max): in NCHW, or as an NHWC graph with OHWI weights."""
    w = W.transpose(0, 2, 3, 1) if nhwc else W
    out = (1, 3, 5, 6)
    pooled = (1, 3, 2, 3)

    def dims(nchw: tuple[int, ...]) -> tuple[int, ...]:
        return (nchw[0], nchw[2], nchw[3], nchw[1]) if nhwc else nchw

    tensors = (Tensor(0, "x", 0, dims(X.shape), 0, INPUT, FLOAT32), Tensor(1, "w", 0, w.shape, 0, CONST, FLOAT32),
               Tensor(2, "b", 1, B.shape, 0, CONST, FLOAT32), Tensor(3, "conv", 0, dims(out), 0, VAR, FLOAT32),
               Tensor(4, "pool", 0, dims(pooled), 0, VAR, FLOAT32))
    nodes = (Node(0, "x", INPUT_OP_ID, 1, None, {}, None, (), (0,)), Node(1, "w", 4, 1, "Const", {}, None, (), (1,)),
             Node(2, "b", 4, 1, "Const", {}, None, (), (2,)),
             Node(3, "conv", CONV, 1, "Convolution", CONV_PARAMS, None, (0, 1, 2), (3,)),
             Node(4, "pool", POOL, 1, "Pooling", POOL_PARAMS, None, (3,), (4,)))
    buffers = (Buffer(0, w.nbytes, w.tobytes()), Buffer(1, B.nbytes, B.tobytes()))
    layout = 1 if nhwc else 0
    return Model((2, 0, 0), 5, 0, None, (Subgraph(0, 0, layout, layout, (0,), (4,), nodes, tensors, buffers, "g"),))


def _errors(model: Model) -> list[str]:
    """The errors of the model once written and read back (a hand-built node has no parameter block yet)."""
    written = read_tmfile(write_tmfile(model))
    return [str(d) for d in validate_tmfile(written, current_registry()).diagnostics if d.is_error]


def test_an_nhwc_graph_validates_against_its_declared_dims() -> None:
    model = read_tmfile(write_tmfile(_model(nhwc=True)))
    assert _errors(model) == []
    result = validate_tmfile(model, current_registry())
    assert result.facts["conv"].shape == (1, 5, 6, 3) and result.facts["pool"].shape == (1, 2, 3, 3)
    assert _errors(_model(nhwc=False)) == []
    nhwc_dims_in_nchw = _model(nhwc=True)
    graph = nhwc_dims_in_nchw.graph
    as_nchw = Model((2, 0, 0), 5, 0, None, (Subgraph(0, 0, 0, 0, graph.inputs, graph.outputs, graph.nodes,
                                                       graph.tensors, graph.buffers, "g"),))  # NHWC read as NCHW
    assert _errors(as_nchw), "an NHWC graph read as NCHW must not validate"


def test_an_nhwc_graph_computes_what_the_nchw_one_does() -> None:
    registry = current_registry()
    nchw = run_model(to_onnx(_model(nhwc=False), registry).model, {"x": X})["pool"]
    nhwc = run_model(to_onnx(_model(nhwc=True), registry).model, {"x": X.transpose(0, 2, 3, 1)})["pool"]
    np.testing.assert_array_equal(nhwc, nchw.transpose(0, 2, 3, 1))


def test_consecutive_nhwc_ops_share_one_transpose_back() -> None:
    view = to_onnx(_model(nhwc=True), current_registry()).model
    ops = [n.op_type for n in view.graph.node]
    # x and w transposed in, conv's NCHW output feeds the pool directly, each result transposed out once
    assert ops == ["Transpose", "Transpose", "Convolution", "Transpose", "Pooling", "Transpose"]


def _prelu_model(float16_data: bool) -> Model:
    """input -> PReLU whose slope is float32, as Tengine's float16 models keep it."""
    dtype = FLOAT16 if float16_data else FLOAT32
    slope = np.array([0.25, -0.5], np.float32)
    tensors = (Tensor(0, "x", 0, (1, 2, 2, 2), 0, INPUT, dtype), Tensor(1, "slope", 0, (2,), 0, CONST, FLOAT32),
               Tensor(2, "y", 0, (1, 2, 2, 2), 0, VAR, dtype))
    nodes = (Node(0, "x", INPUT_OP_ID, 1, None, {}, None, (), (0,)),
             Node(1, "slope", 4, 1, "Const", {}, None, (), (1,)),
             Node(2, "prelu", PRELU, 1, "Prelu", {}, None, (0, 1), (2,)))
    return Model((2, 0, 0), 2, 0, None, (Subgraph(0, 0, 0, 0, (0,), (2,), nodes, tensors,
                                                   (Buffer(0, slope.nbytes, slope.tobytes()),), "g"),))


def test_a_float16_model_with_float32_parameters_is_seen_in_float32() -> None:
    model = _prelu_model(float16_data=True)
    assert _errors(model) == []
    view = to_onnx(model, current_registry()).model
    assert view.graph.input[0].type.tensor_type.elem_type == 1  # float
    x = rng.standard_normal((1, 2, 2, 2)).astype(np.float16).astype(np.float32)
    got = run_model(view, {"x": x})["y"]
    want = run_model(to_onnx(_prelu_model(float16_data=False), current_registry()).model, {"x": x})["y"]
    np.testing.assert_array_equal(got, want)


def _int8_conv(calibrated: bool) -> Model:
    """input -> Convolution with int8 weights (per output channel) and an int32 bias stored without scales (the
    calibration tool's), or with int8 activations declared without scales (the older quantisation tool's)."""
    w_q = rng.integers(-127, 128, (3, 2, 3, 3), dtype=np.int8)
    w_params = tuple(QuantParam(0, s, 8) for s in (0.01, 0.02, 0.04))
    b_q = np.array([100, -200, 300], np.int32)
    x_params = (QuantParam(0, 0.05, 8),) if calibrated else ()
    act = INT8
    tensors = (Tensor(0, "x", 0, (1, 2, 5, 6), 0, INPUT, act, x_params),
               Tensor(1, "w", 0, w_q.shape, 0, CONST, INT8, w_params),
               Tensor(2, "b", 1, b_q.shape, 0, CONST, INT32 if calibrated else FLOAT32),
               Tensor(3, "conv", 0, (1, 3, 5, 6), 0, VAR, act, (QuantParam(0, 0.1, 8),) if calibrated else ()))
    bias = b_q if calibrated else b_q.astype(np.float32)
    nodes = (Node(0, "x", INPUT_OP_ID, 1, None, {}, None, (), (0,)), Node(1, "w", 4, 1, "Const", {}, None, (), (1,)),
             Node(2, "b", 4, 1, "Const", {}, None, (), (2,)),
             Node(3, "conv", CONV, 1, "Convolution", CONV_PARAMS, None, (0, 1, 2), (3,)))
    buffers = (Buffer(0, w_q.nbytes, w_q.tobytes()), Buffer(1, bias.nbytes, bias.tobytes()))
    return Model((2, 0, 0), 2, 0, None, (Subgraph(0, 0, 0, 0, (0,), (3,), nodes, tensors, buffers, "g"),))


def test_a_calibrated_bias_takes_the_input_and_weight_scales() -> None:
    model = _int8_conv(calibrated=True)
    assert _errors(model) == []
    view = to_onnx(model, current_registry()).model
    (bias,) = [t for t in view.graph.initializer if t.name == "b"]
    from onnx import numpy_helper

    np.testing.assert_allclose(numpy_helper.to_array(bias), [100 * 0.05 * 0.01, -200 * 0.05 * 0.02, 300 * 0.05 * 0.04],
                               rtol=1e-6)


def test_int8_activations_without_scales_are_seen_as_float() -> None:
    model = _int8_conv(calibrated=False)
    assert _errors(model) == []
    view = to_onnx(model, current_registry()).model
    assert view.graph.input[0].type.tensor_type.elem_type == 1
    assert run_model(view, {"x": X[:, :, :5, :6]})["conv"].dtype == np.float32
