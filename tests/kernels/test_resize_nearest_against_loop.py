"""Resize nearest (one gather over the moving axes, axes mapping onto themselves left alone) against a loop that
picks every output element's source element by the coordinate formulas of the operator text, one at a time."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.kernels.ai_onnx.resize import resize


def source(i: int, length: int, out: int, scale: float, transform: str, nearest_mode: str,
           start: float, end: float) -> tuple[int, bool]:
    """The input index output index i reads, and whether its position lies outside (tf_crop_and_resize)."""
    if transform == "half_pixel":
        x = (i + 0.5) / scale - 0.5
    elif transform == "asymmetric":
        x = i / scale
    elif transform == "align_corners":
        x = i * (length - 1) / (out - 1) if out > 1 else 0.0
    elif transform == "pytorch_half_pixel":
        x = (i + 0.5) / scale - 0.5 if out > 1 else 0.0
    elif transform == "tf_crop_and_resize":
        x = start * (length - 1) + i * (end - start) * (length - 1) / (out - 1) if out > 1 else \
            0.5 * (start + end) * (length - 1)
    else:
        raise AssertionError(transform)
    if nearest_mode == "round_prefer_floor":
        k = math.ceil(x - 0.5)
    elif nearest_mode == "round_prefer_ceil":
        k = math.floor(x + 0.5)
    elif nearest_mode == "floor":
        k = math.floor(x)
    else:
        k = math.ceil(x)
    return min(max(k, 0), length - 1), transform == "tf_crop_and_resize" and (x < 0 or x > length - 1)


def resize_by_loop(x: np.ndarray, scales: list[float], transform: str, nearest_mode: str, roi: list[float],
                   fill: float) -> np.ndarray:
    outs = [math.floor(n * s) for n, s in zip(x.shape, scales, strict=True)]
    r = x.ndim
    y = np.zeros(outs, dtype=x.dtype)
    for pos in itertools.product(*(range(o) for o in outs)):
        picked = [source(i, n, o, s, transform, nearest_mode, roi[a], roi[r + a])
                  for a, (i, n, o, s) in enumerate(zip(pos, x.shape, outs, scales, strict=True))]
        y[pos] = fill if any(out for _, out in picked) else x[tuple(k for k, _ in picked)]
    return y


@st.composite
def resize_cases(draw: st.DrawFn) -> tuple[np.ndarray, list[float], dict[str, Any], list[float]]:
    rank = draw(st.integers(1, 4))
    shape = [draw(st.integers(1, 4)) for _ in range(rank)]
    # scales of 1 on some axes (the axes left alone), others growing or shrinking
    scales = [draw(st.sampled_from([1.0, 1.0, 2.0, 3.0, 0.5, 1.5, 0.75])) for _ in range(rank)]
    scales = [s if math.floor(n * s) >= 1 else 1.0 for n, s in zip(shape, scales, strict=True)]
    transform = draw(st.sampled_from(["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel",
                                      "tf_crop_and_resize"]))
    nearest_mode = draw(st.sampled_from(["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]))
    roi = [draw(st.sampled_from([0.0, 0.2, -0.3])) for _ in range(rank)] + \
        [draw(st.sampled_from([1.0, 0.8, 1.3])) for _ in range(rank)]
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.integers(-100, 100, shape).astype(np.float32)
    attrs = dict(antialias=0, axes=None, coordinate_transformation_mode=transform, cubic_coeff_a=-0.75,
                 exclude_outside=0, extrapolation_value=-7.0, keep_aspect_ratio_policy="stretch", mode="nearest",
                 nearest_mode=nearest_mode)
    return x, scales, attrs, roi


@settings(max_examples=200, deadline=None)
@given(resize_cases())
def test_resize_nearest_matches_the_loop(case: tuple[np.ndarray, list[float], dict[str, Any], list[float]]) -> None:
    x, scales, attrs, roi = case
    transform = attrs["coordinate_transformation_mode"]
    roi_input = np.array(roi, np.float32) if transform == "tf_crop_and_resize" else None
    (got,) = resize(x, roi_input, np.array(scales, np.float32), None, **attrs)
    box = [float(v) for v in np.array(roi, np.float32)]
    expected = resize_by_loop(x, [float(s) for s in np.array(scales, np.float32)], transform,
                              attrs["nearest_mode"], box, attrs["extrapolation_value"])
    assert got is not x
    np.testing.assert_array_equal(got, expected, err_msg=f"Resize scales {scales} {attrs}")


def test_unchanged_axes_give_a_copy() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (got,) = resize(x, None, np.array([1, 1], np.float32), None, antialias=0, axes=None,
                    coordinate_transformation_mode="half_pixel", cubic_coeff_a=-0.75, exclude_outside=0,
                    extrapolation_value=0.0, keep_aspect_ratio_policy="stretch", mode="nearest",
                    nearest_mode="round_prefer_floor")
    np.testing.assert_array_equal(got, x)
    assert not np.shares_memory(got, x)


def test_a_coordinate_just_below_an_integer_floors_below_it() -> None:
    """The float32 scale taken exactly (onnx.reference's double arithmetic): 1 / 0.33333334 is 2.99999991, and
    floor picks input 2 there, where onnxruntime's float32 coordinate rounds to 3.0 (Resize's doc)."""
    x = np.arange(9, dtype=np.float32).reshape(1, 9)
    (got,) = resize(x, None, np.array([1, 1 / 3], np.float32), None, antialias=0, axes=None,
                    coordinate_transformation_mode="asymmetric", cubic_coeff_a=-0.75, exclude_outside=0,
                    extrapolation_value=0.0, keep_aspect_ratio_policy="stretch", mode="nearest", nearest_mode="floor")
    assert got.ravel().tolist() == [0, 2, 5]
    (got,) = resize(x, None, np.array([1, 1 / 3], np.float32), None, antialias=0, axes=None,
                    coordinate_transformation_mode="asymmetric", cubic_coeff_a=-0.75, exclude_outside=0,
                    extrapolation_value=0.0, keep_aspect_ratio_policy="stretch", mode="nearest", nearest_mode="ceil")
    assert got.ravel().tolist() == [0, 3, 6]
