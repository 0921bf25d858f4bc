"""AveragePool (separable box sums divided by per-axis window counts) against a plain loop over output positions.

The loop averages, in float64, the input values each window covers; with count_include_pad=1 the divisor also
counts the window's positions in the explicit (or automatic) padding, never those in the ceil-mode overhang.
Drawn cases cover 1-3 spatial axes, strides, dilations, pads, auto_pad, ceil_mode and count_include_pad.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.kernels.ai_onnx.average_pool import average_pool
from conformance.kernels.windows import make_window


def average_by_loop(x: np.ndarray, attrs: dict[str, Any]) -> np.ndarray:
    spatial = x.shape[2:]
    w = make_window("AveragePool", spatial, attrs["kernel_shape"], strides=attrs["strides"],
                    dilations=attrs["dilations"], pads=attrs["pads"], auto_pad=attrs["auto_pad"],
                    ceil_mode=attrs["ceil_mode"])
    y = np.zeros((*x.shape[:2], *w.out))
    for pos in itertools.product(*(range(o) for o in w.out)):
        total = np.zeros(x.shape[:2])
        count = 0
        for tap in itertools.product(*(range(k) for k in w.kernel)):
            src = [p * s - b + t * d for p, s, b, t, d in zip(pos, w.strides, w.begin, tap, w.dilations, strict=True)]
            inside = all(0 <= i < n for i, n in zip(src, spatial, strict=True))
            in_pads = all(-b <= i < n + e for i, n, b, e in zip(src, spatial, w.begin, w.end, strict=True))
            if inside:
                total += x[(Ellipsis, *src)]
            if inside or (attrs["count_include_pad"] and in_pads):
                count += 1
        y[(Ellipsis, *pos)] = total / count
    return y


@st.composite
def pool_cases(draw: st.DrawFn) -> tuple[np.ndarray, dict[str, Any]]:
    r = draw(st.integers(1, 3))
    ks = [draw(st.integers(1, 3)) for _ in range(r)]
    dilations = [draw(st.sampled_from([1, 1, 2])) for _ in range(r)]
    strides = [draw(st.integers(1, 3)) for _ in range(r)]
    pads = [draw(st.integers(0, k - 1)) for k in ks] + [draw(st.integers(0, k - 1)) for k in ks]
    extent = [(k - 1) * d + 1 for k, d in zip(ks, dilations, strict=True)]
    spatial = [draw(st.integers(e, e + 4)) for e in extent]
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal((draw(st.integers(1, 2)), draw(st.integers(1, 3)), *spatial)).astype(np.float32)
    attrs = dict(kernel_shape=ks, auto_pad=draw(st.sampled_from(["NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER",
                                                                  "VALID"])),
                 pads=pads, strides=strides, count_include_pad=draw(st.integers(0, 1)),
                 ceil_mode=draw(st.integers(0, 1)), dilations=dilations)
    return x, attrs


@settings(max_examples=150, deadline=None)
@given(pool_cases())
def test_average_pool_matches_the_loop(case: tuple[np.ndarray, dict[str, Any]]) -> None:
    x, attrs = case
    (got,) = average_pool(x, **attrs)
    expected = average_by_loop(x, attrs)
    assert got.dtype == np.float32
    assert got.shape == expected.shape, f"AveragePool {attrs}: shape {got.shape}, the loop gives {expected.shape}"
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=f"AveragePool {attrs}")
