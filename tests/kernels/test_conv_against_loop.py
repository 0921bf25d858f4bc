"""Conv's fast paths (flat image for unit strides, blocked depthwise sums, im2col) against a plain loop.

The loop visits every output position and sums input times weight over the group's channels and the kernel taps
in float64, skipping taps that fall into the padding. Drawn cases cover 1-3 spatial axes, batches, groups
(depthwise with and without a channel multiplier), strides, dilations, explicit pads and auto_pad.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.kernels.ai_onnx import conv as conv_module
from conformance.kernels.ai_onnx.conv import conv
from conformance.kernels.windows import make_window


def conv_by_loop(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, attrs: dict[str, Any]) -> np.ndarray:
    """Conv in float64, one output value at a time."""
    n = x.shape[0]
    m, cg = weight.shape[:2]
    group = attrs["group"]
    ks = weight.shape[2:]
    w = make_window("Conv", x.shape[2:], list(ks), strides=attrs["strides"], dilations=attrs["dilations"],
                    pads=attrs["pads"], auto_pad=attrs["auto_pad"], ceil_mode=0)
    y = np.zeros((n, m, *w.out))
    for b, oc in itertools.product(range(n), range(m)):
        g = oc // (m // group)
        for pos in itertools.product(*(range(o) for o in w.out)):
            total = 0.0 if bias is None else float(bias[oc])
            for ic, tap in itertools.product(range(cg), itertools.product(*(range(k) for k in ks))):
                src = [p * s - bg + t * d for p, s, bg, t, d in zip(pos, w.strides, w.begin, tap, w.dilations,
                                                                     strict=True)]
                if all(0 <= i < size for i, size in zip(src, x.shape[2:], strict=True)):
                    total += float(x[(b, g * cg + ic, *src)]) * float(weight[(oc, ic, *tap)])
            y[(b, oc, *pos)] = total
    return y


@st.composite
def conv_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, dict[str, Any]]:
    r = draw(st.integers(1, 3))
    kind = draw(st.sampled_from(["depthwise", "depthwise_multiplier", "grouped", "dense"]))
    group = draw(st.integers(1, 3))
    c = group if kind.startswith("depthwise") else group * draw(st.integers(1, 2))
    m = group * (draw(st.integers(2, 3)) if kind == "depthwise_multiplier" else 1 if kind == "depthwise"
                 else draw(st.integers(1, 2)))
    n = draw(st.integers(1, 2))
    ks = [draw(st.integers(1, 3)) for _ in range(r)]
    strides = [draw(st.sampled_from([1, 1, 2])) for _ in range(r)]
    dilations = [draw(st.sampled_from([1, 1, 2])) for _ in range(r)]
    auto_pad = draw(st.sampled_from(["NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]))
    pads = [draw(st.integers(0, 2)) for _ in range(2 * r)]
    extent = [(k - 1) * d + 1 for k, d in zip(ks, dilations, strict=True)]
    # every axis at least as long as the window's extent, so VALID and zero pads have an output
    spatial = [draw(st.integers(e, e + 4)) for e in extent]
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, *spatial)).astype(np.float32)
    weight = rng.standard_normal((m, c // group, *ks)).astype(np.float32)
    bias = rng.standard_normal(m).astype(np.float32) if draw(st.booleans()) else None
    attrs = dict(auto_pad=auto_pad, dilations=dilations, group=group, kernel_shape=ks, pads=pads, strides=strides)
    return x, weight, bias, attrs


@settings(max_examples=150, deadline=None)
@given(conv_cases())
def test_conv_matches_the_loop(case: tuple[np.ndarray, np.ndarray, np.ndarray | None, dict[str, Any]]) -> None:
    x, weight, bias, attrs = case
    (got,) = conv(x, weight, bias, **attrs)
    expected = conv_by_loop(x, weight, bias, attrs)
    assert got.dtype == np.float32 and got.flags.c_contiguous
    assert got.shape == expected.shape, f"Conv {attrs}: shape {got.shape}, the loop gives {expected.shape}"
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, err_msg=f"Conv {attrs}")


def test_depthwise_blocks_split_the_channels(monkeypatch: Any) -> None:
    """Blocks of one channel (a block size smaller than one run) give the sums of a single block."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 5, 6, 7)).astype(np.float32)
    weight = rng.standard_normal((5, 1, 3, 2)).astype(np.float32)
    attrs: dict[str, Any] = dict(auto_pad="NOTSET", dilations=[2, 1], group=5, kernel_shape=[3, 2],
                                 pads=[1, 0, 2, 1], strides=[1, 1])
    (whole,) = conv(x, weight, None, **attrs)
    monkeypatch.setattr(conv_module, "_BLOCK_BYTES", 1)
    (blocked,) = conv(x, weight, None, **attrs)
    np.testing.assert_array_equal(blocked, whole)
    np.testing.assert_allclose(blocked, conv_by_loop(x, weight, None, attrs), rtol=1e-5, atol=1e-5)


def test_float16_sums_in_float32_and_rounds_once() -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 3, 5, 5)).astype(np.float16)
    weight = rng.standard_normal((3, 1, 3, 3)).astype(np.float16)
    attrs: dict[str, Any] = dict(auto_pad="SAME_UPPER", dilations=[1, 1], group=3, kernel_shape=[3, 3],
                                 pads=[0, 0, 0, 0], strides=[1, 1])
    (got,) = conv(x, weight, None, **attrs)
    (wide,) = conv(x.astype(np.float32), weight.astype(np.float32), None, **attrs)
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, wide.astype(np.float16))
    np.testing.assert_allclose(got, conv_by_loop(x, weight, None, attrs), rtol=2e-3, atol=2e-3)
