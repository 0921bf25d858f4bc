"""ai.onnx.modified DepthwiseConv2d: TensorFlow's NHWC depthwise convolution against a naive loop."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)


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
    (y,) = kernel("ai.onnx.modified", "DepthwiseConv2d")(x, w, b, kernel_shape=[3, 2], strides=list(strides),
                                                         dilations=list(dilations), pads=pads)
    np.testing.assert_allclose(y, _naive_depthwise(x, w, b, strides, dilations, pads), rtol=1e-10, atol=1e-12)
