"""Tengine Pooling: max and average pooling in its three flavours, transcribed from Tengine, with its shape formula."""

from __future__ import annotations

import numpy as np
import pytest

from opset.infer import infer_shapes
from tests.helpers import inferred, kernel, tengine_run, version

RNG = np.random.default_rng(20240601)
V = version("tengine", "Pooling", 1)
pooling = kernel("tengine", "Pooling")


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
def test_pooling_matches_transcribed_reference(alg: int, caffe: int, k: int, s: int, p: int, glob: int) -> None:
    x = RNG.standard_normal((2, 3, 7, 6))
    attrs = {"alg": alg, "kernel_h": k, "kernel_w": k, "stride_h": s, "stride_w": s, "global_pooling": glob,
             "caffe_flavor": caffe, "pad_h0": p, "pad_w0": p, "pad_h1": p, "pad_w1": p}
    (y,) = pooling(x, **attrs)
    want = _naive_pool(x, alg, k, k, s, s, glob, caffe, p, p)
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=1e-12)
    assert inferred(V, [x], attrs).outputs[0] == list(want.shape)


def test_a_window_as_large_as_the_plane_is_global() -> None:
    """Tengine's shape inference makes a 7x7 window on a 7x7 plane with no pad global: one value even where Caffe's
    ceil mode with stride 2 would give two (tengine-lite's pooling.c; Tengine 1.x also with pad_w0 < 0, reading
    pooling_r1)."""
    x = np.random.default_rng(5).standard_normal((1, 2, 7, 7)).astype(np.float32)
    (y,) = tengine_run("Pooling", [x], alg=1, kernel_h=7, kernel_w=7, stride_h=2, stride_w=2, caffe_flavor=1)
    np.testing.assert_allclose(y, x.mean(axis=(2, 3), keepdims=True), rtol=1e-6)
    result = infer_shapes(version("tengine", "Pooling", 1), [[1, 2, 7, 7]],
                          {"alg": 0, "kernel_h": 7, "kernel_w": 7, "stride_h": 2, "stride_w": 2, "pad_h0": -1,
                           "pad_w0": -1})
    assert result.outputs[0] == [1, 2, 4, 4]
    assert [(r.reading.id, r.outputs[0]) for r in result.readings] == [("pooling_r1", [1, 2, 1, 1])]
