"""Tengine Deconvolution: a transposed convolution against a scatter loop, with fused activations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Deconvolution", 1)
deconvolution = kernel("tengine", "Deconvolution")


def _naive_deconv(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, pad: tuple[int, int, int, int],
                  dilation: int, group: int, out_pad: int) -> np.ndarray:
    """Scatter every input pixel through the kernel, as Tengine's ref_deconv_fp32 does."""
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    mg = w.shape[1]
    oh = (h - 1) * stride + dilation * (kh - 1) + 1 - pad[0] - pad[2] + out_pad
    ow = (wd - 1) * stride + dilation * (kw - 1) + 1 - pad[1] - pad[3] + out_pad
    y = np.zeros((n, mg * group, oh, ow))
    cg = c // group
    for b_, ci, i, j in np.ndindex(n, c, h, wd):
        g = ci // cg
        for m in range(mg):
            for a in range(kh):
                for e in range(kw):
                    r, s = i * stride - pad[0] + a * dilation, j * stride - pad[1] + e * dilation
                    if 0 <= r < oh and 0 <= s < ow:
                        y[b_, g * mg + m, r, s] += x[b_, ci, i, j] * w[ci, m, a, e]
    biased: np.ndarray = y + b.reshape(1, -1, 1, 1)
    return biased


@pytest.mark.parametrize(("stride", "pad", "dilation", "group", "out_pad", "activation"), [
    (1, (0, 0, 0, 0), 1, 1, 0, -1), (2, (1, 0, 1, 2), 1, 2, 1, 0), (2, (0, 1, 0, 0), 2, 1, 1, 1),
    (3, (1, 1, 1, 1), 1, 4, 2, 6),
])
def test_deconvolution_matches_scatter_loop(stride: int, pad: tuple[int, int, int, int], dilation: int,
                                            group: int, out_pad: int, activation: int) -> None:
    x = RNG.standard_normal((1, 4, 3, 4)) * 3
    w = RNG.standard_normal((4, 2, 3, 2))
    b = RNG.standard_normal(2 * group)
    attrs: dict[str, Any] = {
        "num_output": 2 * group, "kernel_h": 3, "kernel_w": 2, "stride_h": stride, "stride_w": stride,
        "pad_h0": pad[0], "pad_w0": pad[1], "pad_h1": pad[2], "pad_w1": pad[3], "dilation_h": dilation,
        "dilation_w": dilation, "group": group, "activation": activation, "output_pad_h0": out_pad,
        "output_pad_w0": out_pad}
    (y,) = deconvolution(x, w, b, **attrs)
    want = _naive_deconv(x, w, b, stride, pad, dilation, group, out_pad)
    want = {-1: want, 0: np.maximum(want, 0), 1: np.clip(want, 0, 1), 6: np.clip(want, 0, 6)}[activation]
    np.testing.assert_allclose(y, want, rtol=1e-10, atol=1e-10)
    assert formula_shapes(V, [x, w, b], attrs) == [list(y.shape)]
