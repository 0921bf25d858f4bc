"""Tengine Convolution: ONNX's Conv (onnx.reference) with groups, dilations, pads, activations; pads < 0 as SAME."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import kernel, one_node_model, run_onnx_reference

RNG = np.random.default_rng(20240601)
convolution = kernel("tengine", "Convolution")


def _onnx_conv(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, **attrs: Any) -> np.ndarray:
    inputs: list[np.ndarray | None] = [x, w] if b is None else [x, w, b]
    return run_onnx_reference(*one_node_model("Conv", 11, inputs, attrs, 1))[0]


@pytest.mark.parametrize("activation", [-1, 0, 1, 6])
@pytest.mark.parametrize(("group", "stride", "dilation", "pads"),
                         [(1, 1, 1, (0, 0, 0, 0)), (2, 2, 1, (1, 0, 1, 2)), (4, 1, 2, (2, 2, 2, 2))])
def test_convolution_matches_onnx_reference(activation: int, group: int, stride: int, dilation: int,
                                            pads: tuple[int, int, int, int]) -> None:
    x = (RNG.standard_normal((1, 4, 7, 6)) * 4).astype(np.float32)
    w = RNG.standard_normal((8, 4 // group, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(8).astype(np.float32)
    (y,) = convolution(
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
def test_convolution_negative_pads_are_same(pad: int, onnx_auto_pad: str) -> None:
    x = RNG.standard_normal((1, 2, 6, 5)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
    (y,) = convolution(x, w, None, kernel_h=2, kernel_w=2, stride_h=2, stride_w=2, pad_h0=pad, pad_w0=pad, pad_h1=pad,
                       pad_w1=pad)
    want = _onnx_conv(x, w, None, kernel_shape=[2, 2], strides=[2, 2], auto_pad=onnx_auto_pad)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)
