"""Reference kernels of ai.onnx.modified and tengine: registry examples, formulas and independent computations."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

from conformance.kernels import NO_REFERENCE_KERNEL
from conformance.kernels.registry import find_kernel, run_kernel
from opset.infer import infer_shapes
from opset.load import load_registry
from opset.model import OpVersion

DOMAINS = ("ai.onnx.modified", "tengine")
RNG = np.random.default_rng(20240601)


def _versions() -> list[OpVersion]:
    registry = load_registry()
    return [v for s in registry if s.domain in DOMAINS for v in s.versions]


VERSIONS = _versions()


def _array(literal: dict[str, Any]) -> np.ndarray:
    arr = np.asarray(literal["data"], dtype=np.dtype(literal["dtype"]))
    return arr.reshape(literal["shape"]) if "shape" in literal else arr


def test_every_op_of_both_domains_is_present() -> None:
    names = {(v.domain, v.name) for v in VERSIONS}
    expected = {("ai.onnx.modified", n) for n in ("Add_", "UpSampling2D", "Relu6", "LeakyRelu", "DepthwiseConv2d",
                                                  "Dense")}
    expected |= {("tengine", n) for n in ("Convolution", "Pooling", "ReLU", "Eltwise", "FullyConnected")}
    assert expected <= names


@pytest.mark.parametrize("v", VERSIONS, ids=lambda v: v.signature)
def test_every_op_has_a_kernel_and_an_example(v: OpVersion) -> None:
    if (v.domain, v.name) in NO_REFERENCE_KERNEL:
        assert find_kernel(v.domain, v.name, v.since) is None, f"{v.signature} has a kernel: drop it from the table"
        return
    assert find_kernel(v.domain, v.name, v.since) is not None, f"{v.signature}: no kernel"
    assert v.examples, f"{v.signature}: no executable example"


def _kernel(domain: str, op: str) -> Callable[..., tuple[np.ndarray, ...]]:
    """The kernel of `domain::op` version 1 as the runner calls it: attributes resolved through the registry."""
    if find_kernel(domain, op, 1) is None:
        pytest.fail(f"{domain}::{op}: no reference kernel registered")
    version = next(v for v in VERSIONS if (v.domain, v.name, v.since) == (domain, op, 1))
    return lambda *inputs, **given: run_kernel(version, inputs, given)


# ---- ai.onnx.modified against independent computations ----

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu6_is_clip_0_6(dtype: type) -> None:
    x: np.ndarray = (RNG.standard_normal((3, 4, 5)) * 8).astype(dtype)
    (y,) = _kernel("ai.onnx.modified", "Relu6")(x)
    assert y.dtype == x.dtype
    np.testing.assert_array_equal(y, np.clip(x, 0, 6))


def test_modified_leaky_relu_default_alpha_is_tensorflow_0_2() -> None:
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    (y,) = _kernel("ai.onnx.modified", "LeakyRelu")(x, alpha=0.2)
    np.testing.assert_allclose(y, np.where(x > 0, x, 0.2 * x), rtol=1e-6)
    v = next(v for v in VERSIONS if v.domain == "ai.onnx.modified" and v.name == "LeakyRelu")
    assert v.attributes["alpha"].default == pytest.approx(0.2)


def test_add__adds_bias_on_last_axis() -> None:
    a = RNG.standard_normal((2, 3, 4, 5)).astype(np.float64)
    b = RNG.standard_normal(5)
    (y,) = _kernel("ai.onnx.modified", "Add_")(a, b)
    for c in range(5):
        np.testing.assert_array_equal(y[..., c], a[..., c] + b[c])
    with pytest.raises(ValueError, match="Add_"):
        _kernel("ai.onnx.modified", "Add_")(a, np.ones(4))


@pytest.mark.parametrize("size", [(2, 2), (1, 3), (3, 1)])
def test_upsampling2d_is_repeat(size: tuple[int, int]) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    (y,) = _kernel("ai.onnx.modified", "UpSampling2D")(x, size=list(size))
    np.testing.assert_array_equal(y, np.repeat(np.repeat(x, size[0], axis=1), size[1], axis=2))


def test_dense_is_matmul_plus_bias() -> None:
    x, w, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 5)), RNG.standard_normal(5)
    fn = _kernel("ai.onnx.modified", "Dense")
    np.testing.assert_allclose(fn(x, w, b)[0], x @ w + b, rtol=1e-12)
    np.testing.assert_allclose(fn(x, w)[0], x @ w, rtol=1e-12)


def _naive_depthwise(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, strides: tuple[int, int],
                     dilations: tuple[int, int], pads: str) -> np.ndarray:
    n, h, wd, c = x.shape
    kh, kw, _, m = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if pads == "SAME":
        oh, ow = math.ceil(h / sh), math.ceil(wd / sw)
        top, left = max(0, (oh - 1) * sh + eh - h) // 2, max(0, (ow - 1) * sw + ew - wd) // 2
    else:
        oh, ow, top, left = math.ceil((h - eh + 1) / sh), math.ceil((wd - ew + 1) / sw), 0, 0
    y = np.zeros((n, oh, ow, c * m))
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for bb in range(kw):
                    r, s = i * sh + a * dh - top, j * sw + bb * dw - left
                    if 0 <= r < h and 0 <= s < wd:
                        for ch in range(c):
                            y[:, i, j, ch * m:(ch + 1) * m] += x[:, r, s, ch, None] * w[a, bb, ch]
    return y if b is None else y + b


@pytest.mark.parametrize("strides", [(1, 1), (2, 1), (2, 3)])
@pytest.mark.parametrize("dilations", [(1, 1), (2, 1)])
@pytest.mark.parametrize("pads", ["SAME", "VALID"])
def test_depthwise_conv2d_matches_naive_loop(strides: tuple[int, int], dilations: tuple[int, int],
                                             pads: str) -> None:
    x = RNG.standard_normal((2, 7, 6, 3))
    w = RNG.standard_normal((3, 2, 3, 2))
    b = RNG.standard_normal(6)
    (y,) = _kernel("ai.onnx.modified", "DepthwiseConv2d")(x, w, b, kernel_shape=[3, 2], strides=list(strides),
                                                          dilations=list(dilations), pads=pads)
    np.testing.assert_allclose(y, _naive_depthwise(x, w, b, strides, dilations, pads), rtol=1e-10, atol=1e-12)


# ---- tengine against independent computations ----

def _onnx_conv(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, **attrs: Any) -> np.ndarray:
    names = ["X", "W"] + ([] if b is None else ["B"])
    node = helper.make_node("Conv", names, ["Y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, None)
                                            for n in names],
                              [helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    feeds: dict[str, np.ndarray] = dict(zip(names, [x, w] + ([] if b is None else [b]), strict=True))
    result: Any = ReferenceEvaluator(model).run(None, feeds)
    return np.asarray(result[0])


@pytest.mark.parametrize("activation", [-1, 0, 1, 6])
@pytest.mark.parametrize(("group", "stride", "dilation", "pads"),
                         [(1, 1, 1, (0, 0, 0, 0)), (2, 2, 1, (1, 0, 1, 2)), (4, 1, 2, (2, 2, 2, 2))])
def test_tengine_convolution_matches_onnx_reference(activation: int, group: int, stride: int, dilation: int,
                                                    pads: tuple[int, int, int, int]) -> None:
    x = (RNG.standard_normal((1, 4, 7, 6)) * 4).astype(np.float32)
    w = RNG.standard_normal((8, 4 // group, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(8).astype(np.float32)
    (y,) = _kernel("tengine", "Convolution")(
        x, w, b, kernel_h=3, kernel_w=3, stride_h=stride, stride_w=stride, dilation_h=dilation, dilation_w=dilation,
        input_channel=4, output_channel=8, group=group, activation=activation, pad_h0=pads[0], pad_w0=pads[1],
        pad_h1=pads[2], pad_w1=pads[3])
    want = _onnx_conv(x, w, b, kernel_shape=[3, 3], strides=[stride] * 2, dilations=[dilation] * 2, group=group,
                      pads=[pads[0], pads[1], pads[2], pads[3]])
    if activation == 0:
        want = np.maximum(want, 0)
    elif activation == 1:
        want = np.clip(want, -1, 1)
    elif activation == 6:
        want = np.clip(want, 0, 6)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("pad", "onnx_auto_pad"), [(-1, "SAME_UPPER"), (-2, "SAME_LOWER")])
def test_tengine_convolution_negative_pads_are_same(pad: int, onnx_auto_pad: str) -> None:
    x = RNG.standard_normal((1, 2, 6, 5)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
    (y,) = _kernel("tengine", "Convolution")(x, w, None, kernel_h=2, kernel_w=2, stride_h=2, stride_w=2,
                                               pad_h0=pad, pad_w0=pad, pad_h1=pad, pad_w1=pad)
    want = _onnx_conv(x, w, None, kernel_shape=[2, 2], strides=[2, 2], auto_pad=onnx_auto_pad)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


def _c_div(a: int, b: int) -> int:
    return int(a / b)


def _naive_pool(x: np.ndarray, alg: int, kh: int, kw: int, sh: int, sw: int, glob: int, caffe: int, ph: int,
                pw: int) -> np.ndarray:
    """A line-by-line transcription of Tengine's infer_shape and ref_pooling_fp32."""
    def size(i: int, k: int, s: int, p: int) -> int:
        if p < 0:
            return 1 + _c_div(i - 1, s)
        if caffe == 1:
            o = 2 + _c_div(i - k + 2 * p - 1, s)
            return o - 1 if p > 0 and (o - 1) * s >= i + p else o
        return 1 + _c_div(i - k + p, s) if caffe == 2 else 1 + _c_div(i - k + 2 * p, s)

    def pad0(o: int, i: int, k: int, s: int, p: int) -> int:
        if caffe == 2:
            return _c_div(p, 2)
        return max(0, (o - 1) * s + k - i) // 2 if p < 0 else p

    n, c, h, w = x.shape
    if glob:
        kh, kw, sh, sw, oh, ow, top, left = h, w, 1, 1, 1, 1, 0, 0
    else:
        oh, ow = size(h, kh, sh, ph), size(w, kw, sw, pw)
        top, left = pad0(oh, h, kh, sh, ph), pad0(ow, w, kw, sw, pw)
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            hs, ws = i * sh - top, j * sw - left
            he, we = min(hs + kh, h + top), min(ws + kw, w + left)
            count = (he - hs) * (we - ws)
            hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
            if not caffe:
                count = (he - hs) * (we - ws)
            window = x[:, :, hs:he, ws:we]
            y[:, :, i, j] = window.max(axis=(2, 3)) if alg == 0 else window.sum(axis=(2, 3)) / count
    return y


@pytest.mark.parametrize("alg", [0, 1])
@pytest.mark.parametrize("caffe", [0, 1, 2])
@pytest.mark.parametrize(("k", "s", "p", "glob"), [(2, 2, 0, 0), (3, 2, 1, 0), (3, 1, 1, 0), (3, 2, -1, 0),
                                                   (2, 1, 1, 0), (3, 3, 0, 1)])
def test_tengine_pooling_matches_transcribed_reference(alg: int, caffe: int, k: int, s: int, p: int,
                                                       glob: int) -> None:
    x = RNG.standard_normal((2, 3, 7, 6))
    (y,) = _kernel("tengine", "Pooling")(x, alg=alg, kernel_h=k, kernel_w=k, stride_h=s, stride_w=s,
                                         global_pooling=glob, caffe_flavor=caffe, pad_h0=p, pad_w0=p, pad_h1=p,
                                         pad_w1=p)
    want = _naive_pool(x, alg, k, k, s, s, glob, caffe, p, p)
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=1e-12)
    v = next(v for v in VERSIONS if v.domain == "tengine" and v.name == "Pooling")
    attrs = {"alg": alg, "kernel_h": k, "kernel_w": k, "stride_h": s, "stride_w": s, "global_pooling": glob,
             "caffe_flavor": caffe, "pad_h0": p, "pad_w0": p, "pad_h1": p, "pad_w1": p}
    assert infer_shapes(v, [list(x.shape)], attrs).outputs[0] == list(want.shape)


def test_tengine_relu_is_leaky() -> None:
    x = RNG.standard_normal(50).astype(np.float32)
    fn = _kernel("tengine", "ReLU")
    np.testing.assert_array_equal(fn(x, negative_slope=0.0)[0], np.maximum(x, 0))
    np.testing.assert_allclose(fn(x, negative_slope=0.1)[0], np.where(x < 0, np.float32(0.1) * x, x))


@pytest.mark.parametrize("shape", [(3, 8), (3, 2, 4), (3, 2, 2, 2)])
def test_tengine_fully_connected_flattens_and_transposes(shape: tuple[int, ...]) -> None:
    x, w, b = RNG.standard_normal(shape), RNG.standard_normal((5, 8)), RNG.standard_normal(5)
    (y,) = _kernel("tengine", "FullyConnected")(x, w, b, num_output=5)
    want = np.array([[sum(x.reshape(3, 8)[i, k] * w[j, k] for k in range(8)) + b[j] for j in range(5)]
                     for i in range(3)])
    assert y.shape == (3, 5) + (1,) * (len(shape) - 2)
    np.testing.assert_allclose(y.reshape(3, 5), want, rtol=1e-12)


_ELTWISE_CASES: list[tuple[int, Any]] = [
    (0, lambda a, b: a * b), (1, lambda a, b: a * b.flat[0]), (2, lambda a, b: a + b),
    (3, lambda a, b: a + b.flat[0]), (4, lambda a, b: a - b), (5, lambda a, b: a - b.flat[0]),
    (6, np.maximum), (8, lambda a, b: np.minimum(a, b.flat[0])), (10, lambda a, b: a / b),
    (16, lambda a, b: np.abs(a) ** b),
]


@pytest.mark.parametrize(("op_type", "expect"), _ELTWISE_CASES)
def test_tengine_eltwise_binary_types(op_type: int, expect: Any) -> None:
    a = RNG.uniform(0.5, 2.0, (2, 3, 2, 2))
    b = RNG.uniform(0.5, 2.0, (2, 3, 2, 2))
    fn = _kernel("tengine", "Eltwise")
    a_in = np.abs(a) if op_type == 16 else a
    np.testing.assert_allclose(fn(a_in, b, type=op_type)[0], expect(a, b), rtol=1e-12)


def test_tengine_eltwise_broadcasts_like_tengine() -> None:
    a = RNG.standard_normal((2, 3, 2, 2))
    fn = _kernel("tengine", "Eltwise")
    per_channel = RNG.standard_normal(6)
    want = a.copy()
    for n in range(2):
        for c in range(3):
            want[n, c] += per_channel[n * 3 + c]
    np.testing.assert_allclose(fn(a, per_channel, type=2)[0], want, rtol=1e-12)
    np.testing.assert_allclose(fn(a, np.array([2.0]), type=0)[0], a * 2, rtol=1e-12)
    with pytest.raises(ValueError, match="broadcast"):
        fn(a, np.ones(5), type=2)
    with pytest.raises(ValueError, match="second input"):
        fn(a, None, type=2)


@pytest.mark.parametrize(("op_type", "expect"), [
    (7, lambda a: 1 / np.sqrt(a)), (11, np.log), (12, np.exp), (13, np.sqrt), (14, np.floor), (15, lambda a: a * a),
    (17, lambda a: (0.5 + 3.0 * a) ** 2.0),
])
def test_tengine_eltwise_unary_types(op_type: int, expect: Any) -> None:
    a = RNG.uniform(0.1, 3.0, (1, 2, 3, 3)).astype(np.float32)
    (y,) = _kernel("tengine", "Eltwise")(a, type=op_type, shift=0.5, scale=3.0, power=2.0)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, expect(a.astype(np.float64)), rtol=1e-5)
