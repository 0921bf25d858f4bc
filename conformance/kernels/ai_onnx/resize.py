"""Resize (10, 11, 13, 18, 19): each resized axis is resampled by a weight matrix (output x input), one axis at a
time (every mode is separable).

Output lengths: floor(length * scale) for scales; sizes as given (stretch), or round_half_up(s * length) with s
the smallest (not_larger) or largest (not_smaller) sizes[i] / length over the resized axes, from version 18.
The coordinate transform uses the scale (given, sizes / length, or the policy's s) and, where the text names
the resized length (align_corners, pytorch_half_pixel, tf_crop_and_resize), the integer output length.

nearest picks the input pixel per nearest_mode (clamped into the axis); version 10 uses x / scale and floor when
the axis grows, ceil when it shrinks. linear and cubic (Keys' kernel, cubic_coeff_a) weigh the neighbours of
floor(x), clamped to the axis, or dropped and the rest renormalised with exclude_outside = 1. With antialias = 1
(version 18) a shrinking axis stretches the linear/cubic kernel by 1 / scale and normalises its weights.
tf_crop_and_resize gives extrapolation_value where the source position falls outside the input.

Floats compute in float32 (double in double); integers and bool compute in double, round half to even and
saturate at the type's bounds (onnx.reference; nonzero is True). Reading resize_r6 (onnxruntime, tract) converts as
a C cast does instead: toward zero, and a bool is true wherever the interpolated value is not zero.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes, work_dtype
from conformance.kernels.registry import RunKernel, ValueRange, kernel, reading_kernel

MODES = ("nearest", "linear", "cubic")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
TRANSFORMS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric",
              "tf_half_pixel_for_nn", "tf_crop_and_resize")
POLICIES = ("stretch", "not_larger", "not_smaller")


class _Axis:
    """What resampling one axis needs."""

    def __init__(self, length: int, out: int, scale: float, start: float, end: float) -> None:
        self.length, self.out, self.scale, self.start, self.end = length, out, scale, start, end


def _source_positions(axis: _Axis, transform: str) -> np.ndarray:
    """The input coordinate of every output index (float64)."""
    y = np.arange(axis.out, dtype=np.float64)
    length, out, scale = axis.length, axis.out, axis.scale
    if transform == "half_pixel":
        return (y + 0.5) / scale - 0.5
    if transform == "half_pixel_symmetric":
        offset = length / 2 * (1 - out / (scale * length))
        return offset + (y + 0.5) / scale - 0.5
    if transform == "pytorch_half_pixel":
        return (y + 0.5) / scale - 0.5 if out > 1 else np.zeros(out)
    if transform == "align_corners":
        return y * (length - 1) / (out - 1) if out > 1 else np.zeros(out)
    if transform == "asymmetric":
        return y / scale
    if transform == "tf_half_pixel_for_nn":
        return (y + 0.5) / scale
    if transform == "tf_crop_and_resize":
        if out > 1:
            return axis.start * (length - 1) + y * (axis.end - axis.start) * (length - 1) / (out - 1)
        return np.full(out, 0.5 * (axis.start + axis.end) * (length - 1))
    raise ValueError(f"Resize: unknown coordinate_transformation_mode {transform!r}")


def _nearest_index(x: np.ndarray, nearest_mode: str) -> np.ndarray:
    if nearest_mode == "round_prefer_floor":
        return np.asarray(np.ceil(x - 0.5))
    if nearest_mode == "round_prefer_ceil":
        return np.asarray(np.floor(x + 0.5))
    if nearest_mode == "floor":
        return np.asarray(np.floor(x))
    if nearest_mode == "ceil":
        return np.asarray(np.ceil(x))
    raise ValueError(f"Resize: unknown nearest_mode {nearest_mode!r}")


def _cubic(s: np.ndarray, a: float) -> np.ndarray:
    """Keys' cubic convolution kernel."""
    s = np.abs(s)
    near = ((a + 2) * s - (a + 3)) * s * s + 1
    far = ((a * s - 5 * a) * s + 8 * a) * s - 4 * a
    return np.asarray(np.where(s <= 1, near, np.where(s < 2, far, 0.0)))


def _linear(s: np.ndarray) -> np.ndarray:
    return np.asarray(np.clip(1 - np.abs(s), 0, None))


def _weights(axis: _Axis, x: np.ndarray, mode: str, cubic_coeff_a: float, exclude_outside: int,
             antialias: int) -> np.ndarray:
    """out x length matrix of a linear or cubic resampling."""
    support = 1.0 if mode == "linear" else 2.0
    stretch = 1.0 / axis.scale if antialias and axis.scale < 1 else 1.0
    reach = support * stretch
    first = np.floor(x - reach).astype(np.int64) + 1  # taps j with |j - x| < reach
    count = math.ceil(2 * reach) + 1
    taps = first[:, None] + np.arange(count)[None, :]
    distance = (taps - x[:, None]) / stretch
    w = _linear(distance) if mode == "linear" else _cubic(distance, cubic_coeff_a)
    if exclude_outside:
        w = np.where((taps >= 0) & (taps < axis.length), w, 0.0)
    if (antialias and stretch != 1.0) or exclude_outside:
        total = w.sum(axis=1, keepdims=True)
        w = w / np.where(total == 0, 1.0, total)
    matrix = np.zeros((axis.out, axis.length))
    rows = np.broadcast_to(np.arange(axis.out)[:, None], taps.shape)
    np.add.at(matrix, (rows, np.clip(taps, 0, axis.length - 1)), w)
    return matrix


def _nearest_picks(axis: _Axis, x: np.ndarray, nearest_mode: str, legacy_nearest: bool) -> np.ndarray:
    """The input index nearest mode reads for every output index of one axis (clamped into the axis)."""
    if legacy_nearest:
        index = np.floor(x) if axis.scale >= 1 else np.ceil(x)
    else:
        index = _nearest_index(x, nearest_mode)
    return np.asarray(np.clip(index.astype(np.int64), 0, axis.length - 1))


def _extrapolate(out: np.ndarray, d: int, axis: _Axis, x: np.ndarray, extrapolation_value: float) -> np.ndarray:
    """tf_crop_and_resize: extrapolation_value wherever axis d's source position falls outside the input."""
    outside = (x < 0) | (x > axis.length - 1)
    if not outside.any():
        return out
    if out.dtype.kind == "O":
        raise ValueError("Resize: extrapolation_value is a number; a string tensor has no value for "
                         "positions outside the input (undefined)")
    shape = [1] * out.ndim
    shape[d] = axis.out
    fill = np.asarray(extrapolation_value).astype(out.dtype)
    return np.asarray(np.where(outside.reshape(shape), fill, out))


def _nearest(data: np.ndarray, plan: list[tuple[int, _Axis]], transform: str, nearest_mode: str,
             extrapolation_value: float, legacy_nearest: bool) -> np.ndarray:
    """data resampled by nearest mode on every planned axis: one gather over all the axes that move.

    An axis whose every output index picks its own input index is left out of the gather.
    """
    positions = {d: _source_positions(axis, transform) for d, axis in plan}
    picks = {d: _nearest_picks(axis, positions[d], nearest_mode, legacy_nearest) for d, axis in plan}
    moved = [d for d, axis in plan
             if transform == "tf_crop_and_resize" or axis.out != axis.length
             or not np.array_equal(picks[d], np.arange(axis.length))]
    out = data
    if moved and moved == list(range(moved[0], moved[0] + len(moved))):
        # adjacent index arrays (an open mesh) keep their axes in place
        out = data[(slice(None),) * moved[0] + np.ix_(*(picks[d] for d in moved))]
    else:
        for d in moved:
            out = np.take(out, picks[d], axis=d)
    if transform == "tf_crop_and_resize":
        for d, axis in plan:
            out = _extrapolate(out, d, axis, positions[d], extrapolation_value)
    return out


def _resample(data: np.ndarray, d: int, axis: _Axis, mode: str, transform: str, cubic_coeff_a: float,
              exclude_outside: int, antialias: int, extrapolation_value: float) -> np.ndarray:
    """data resampled along axis d by linear or cubic weights."""
    x = _source_positions(axis, transform)
    matrix = _weights(axis, x, mode, cubic_coeff_a, exclude_outside, antialias).astype(data.dtype)
    out = np.asarray(np.moveaxis(np.tensordot(matrix, data, axes=([1], [d])), 0, d))
    if transform == "tf_crop_and_resize":
        out = _extrapolate(out, d, axis, x, extrapolation_value)
    return out


def _round_half_up(v: float) -> int:
    return math.floor(v + 0.5)


def _plan(x: np.ndarray, roi: np.ndarray | None, scales: np.ndarray | None, sizes: np.ndarray | None,
          axes: Sequence[int] | None, policy: str) -> list[tuple[int, _Axis]]:
    """(axis index, resampling) for every axis that scales, sizes or roi name."""
    rank = x.ndim
    chosen = list(range(rank)) if axes is None else list(normalize_axes("Resize", axes, rank))
    given_scales = scales is not None and np.asarray(scales).size > 0
    given_sizes = sizes is not None and np.asarray(sizes).size > 0
    if given_scales == given_sizes:
        raise ValueError("Resize: exactly one of scales and sizes must be given")
    k = len(chosen)
    box = np.asarray(roi, dtype=np.float64).reshape(-1) if roi is not None and np.asarray(roi).size else None
    if box is not None and box.size != 2 * k:
        raise ValueError(f"Resize: roi needs {2 * k} values, got {box.size}")
    starts = box[:k].tolist() if box is not None else [0.0] * k
    ends = box[k:].tolist() if box is not None else [1.0] * k
    lengths = [x.shape[a] for a in chosen]
    if given_scales:
        factors = [float(v) for v in np.asarray(scales).reshape(-1)]
        if len(factors) != k or min(factors) <= 0:
            raise ValueError(f"Resize: scales must hold {k} positive values, got {factors}")
        outs = [math.floor(n * f) for n, f in zip(lengths, factors, strict=True)]
    else:
        wanted = [int(v) for v in np.asarray(sizes).reshape(-1)]
        if len(wanted) != k or min(wanted) < 0:
            raise ValueError(f"Resize: sizes must hold {k} values >= 0, got {wanted}")
        if policy == "stretch":
            factors = [w / n for w, n in zip(wanted, lengths, strict=True)]
            outs = wanted
        elif policy in ("not_larger", "not_smaller"):
            ratios = [w / n for w, n in zip(wanted, lengths, strict=True)]
            common = min(ratios) if policy == "not_larger" else max(ratios)
            factors = [common] * k
            outs = [_round_half_up(common * n) for n in lengths]
        else:
            raise ValueError(f"Resize: unknown keep_aspect_ratio_policy {policy!r}")
    return [(a, _Axis(n, o, f, s, e))
            for a, n, o, f, s, e in zip(chosen, lengths, outs, factors, starts, ends, strict=True)]


def _resize(x: np.ndarray, roi: np.ndarray | None, scales: np.ndarray | None, sizes: np.ndarray | None, *,
            mode: str, transform: str, nearest_mode: str, cubic_coeff_a: float, exclude_outside: int,
            extrapolation_value: float, antialias: int, axes: Sequence[int] | None, policy: str,
            legacy_nearest: bool = False) -> tuple[np.ndarray, ...]:
    if mode not in MODES:
        raise ValueError(f"Resize: mode must be one of {MODES}, got {mode!r}")
    if x.dtype.kind == "c":  # resizing is linear in X: the parts resize alike (outside the roi: value + 0j)
        parts = [_resize(part.copy(), roi, scales, sizes, mode=mode, transform=transform, nearest_mode=nearest_mode,
                         cubic_coeff_a=cubic_coeff_a, exclude_outside=exclude_outside, extrapolation_value=outside,
                         antialias=antialias, axes=axes, policy=policy, legacy_nearest=legacy_nearest)[0]
                 for part, outside in ((x.real, extrapolation_value), (x.imag, 0.0))]
        return (np.asarray(parts[0] + 1j * parts[1]).astype(x.dtype),)
    if x.dtype.kind == "O" and mode != "nearest":
        raise ValueError(f"Resize: {mode} interpolation of strings is undefined (only nearest picks strings)")
    if x.dtype.kind not in "fiubO":
        raise ValueError(f"Resize: element type {x.dtype} is not supported")
    plan = _plan(x, roi, scales, sizes, axes, policy)
    if any(axis.length == 0 or axis.out < 0 for _, axis in plan):
        raise ValueError("Resize: an axis to resize is empty")
    if mode == "nearest":
        data = _nearest(x, plan, transform, nearest_mode, extrapolation_value, legacy_nearest)
    else:
        data = x.astype(work_dtype(x), copy=False) if x.dtype.kind == "f" else x.astype(np.float64)
        for d, axis in plan:
            data = _resample(data, d, axis, mode, transform, cubic_coeff_a, exclude_outside, antialias,
                             extrapolation_value)
    if data.dtype == x.dtype:
        return (np.array(data, copy=True) if data is x else data,)
    if x.dtype.kind == "f":
        return (data.astype(x.dtype),)
    if x.dtype == np.bool_:
        return (np.rint(data) != 0,)
    info = np.iinfo(x.dtype)
    return (np.clip(np.rint(data), info.min, info.max).astype(x.dtype),)


@kernel("ai.onnx", "Resize", since=10, until=10)
def resize_v10(x: np.ndarray, scales: np.ndarray, *, mode: str) -> tuple[np.ndarray, ...]:
    if mode not in ("nearest", "linear"):
        raise ValueError(f"Resize: version 10 modes are nearest and linear, got {mode!r}")
    # version 10: x / scale; nearest floors when the axis grows and ceils when it shrinks (onnxruntime)
    return _resize(x, None, scales, None, mode=mode, transform="asymmetric", nearest_mode="floor", cubic_coeff_a=-0.75,
                   exclude_outside=0, extrapolation_value=0.0, antialias=0, axes=None, policy="stretch",
                   legacy_nearest=True)


@kernel("ai.onnx", "Resize", since=11, until=17)
def resize_v11(x: np.ndarray, roi: np.ndarray | None, scales: np.ndarray | None, sizes: np.ndarray | None, *,
               coordinate_transformation_mode: str, cubic_coeff_a: float, exclude_outside: int,
               extrapolation_value: float, mode: str, nearest_mode: str) -> tuple[np.ndarray, ...]:
    return _resize(x, roi, scales, sizes, mode=mode, transform=coordinate_transformation_mode,
                   nearest_mode=nearest_mode, cubic_coeff_a=cubic_coeff_a, exclude_outside=exclude_outside,
                   extrapolation_value=extrapolation_value, antialias=0, axes=None, policy="stretch")


@kernel("ai.onnx", "Resize", since=18)
def resize(x: np.ndarray, roi: np.ndarray | None, scales: np.ndarray | None, sizes: np.ndarray | None, *,
           antialias: int, axes: list[int] | None, coordinate_transformation_mode: str, cubic_coeff_a: float,
           exclude_outside: int, extrapolation_value: float, keep_aspect_ratio_policy: str, mode: str,
           nearest_mode: str) -> tuple[np.ndarray, ...]:
    return _resize(x, roi, scales, sizes, mode=mode, transform=coordinate_transformation_mode,
                   nearest_mode=nearest_mode, cubic_coeff_a=cubic_coeff_a, exclude_outside=exclude_outside,
                   extrapolation_value=extrapolation_value, antialias=antialias, axes=axes,
                   policy=keep_aspect_ratio_policy)


# an implementation interpolating in float32 lands within a few float32 ulps of the double result; converted toward
# zero, a whole value can then become its neighbour (2.9999998 to 2): the reading's values are those of every value
# within this relative distance (8 float32 ulps) of the double result
_FLOAT32_SLACK = 2.0 ** -20


@reading_kernel("ai.onnx", "Resize", "resize_r6")
def resize_converting_toward_zero(inputs: Sequence[Any], attributes: Mapping[str, Any],
                                  run: RunKernel) -> tuple[Any, ...]:
    """The interpolated values (computed in double, as the kernel computes an integer X) converted as a C cast does:
    toward zero, saturated at the type's bounds; a bool is true where the value is not zero. Computed in float32
    instead, a value within `_FLOAT32_SLACK` of the double result converts as well."""
    x = inputs[0]
    data = run([np.asarray(x).astype(np.float64), *inputs[1:]])[0]
    slack = _FLOAT32_SLACK * np.maximum(np.abs(data), 1.0)
    if x.dtype == np.bool_:
        return (ValueRange(np.abs(data) > slack, data != 0),)
    info = np.iinfo(x.dtype)

    def converted(v: np.ndarray) -> np.ndarray:
        return np.asarray(np.clip(np.trunc(v), info.min, info.max).astype(x.dtype))

    return (ValueRange(converted(data - slack), converted(data + slack)),)
