"""Upsample: scale every axis by a factor (output dim floor(dim * scale)), nearest or linear.

Opset 1: height_scale/width_scale attributes on the last two axes, modes nearest/bilinear; opset 7: a
`scales` attribute; opset 9/10: a `scales` input. Linear interpolates each scaled axis in turn with the
asymmetric mapping x_in = x_out / scale, clamped at the border.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _nearest_axis(x: np.ndarray, axis: int, scale: float) -> np.ndarray:
    n_in = x.shape[axis]
    n_out = int(np.floor(n_in * scale))
    src = np.minimum(np.floor(np.arange(n_out) / scale).astype(np.int64), n_in - 1)
    return np.asarray(np.take(x, src, axis=axis))


def _linear_axis(x: np.ndarray, axis: int, scale: float) -> np.ndarray:
    n_in = x.shape[axis]
    n_out = int(np.floor(n_in * scale))
    pos = np.arange(n_out) / scale
    lo = np.minimum(np.floor(pos).astype(np.int64), n_in - 1)
    hi = np.minimum(lo + 1, n_in - 1)
    shape = [1] * x.ndim
    shape[axis] = n_out
    w = (pos - lo).astype(x.dtype).reshape(shape)
    a = np.take(x, lo, axis=axis)
    return np.asarray(a + (np.take(x, hi, axis=axis) - a) * w)


def _upsample(x: np.ndarray, scales: Sequence[float], mode: str) -> np.ndarray:
    if len(scales) != x.ndim:
        raise ValueError(f"Upsample: {len(scales)} scales for an input of rank {x.ndim}")
    if any(s < 1 for s in scales):
        raise ValueError(f"Upsample: scales must be >= 1, got {list(scales)}")
    if mode == "nearest":
        y = x
        for axis, s in enumerate(scales):
            if s != 1:
                y = _nearest_axis(y, axis, float(s))
        return y if y is not x else x.copy()
    if mode in ("linear", "bilinear"):
        if x.dtype.kind == "O":
            raise ValueError(f"Upsample: {mode} interpolation of strings is undefined (only nearest picks strings)")
        y = x.astype(work_dtype(x)) if x.dtype.kind == "f" else x.astype(np.float64)
        for axis, s in enumerate(scales):
            if s != 1:
                y = _linear_axis(y, axis, float(s))
        return y.astype(x.dtype)
    raise ValueError(f"Upsample: mode must be nearest or linear, got {mode!r}")


@kernel("ai.onnx", "Upsample", since=1, until=6)
def upsample_v1(x: np.ndarray, *, height_scale: float | None, width_scale: float | None,
                mode: str) -> tuple[np.ndarray, ...]:
    if height_scale is None or width_scale is None:
        raise ValueError("Upsample: height_scale and width_scale are required in opset 1")
    if x.ndim != 4:
        raise ValueError(f"Upsample: opset 1 takes a 4-D input, got shape {x.shape}")
    return (_upsample(x, [1.0, 1.0, height_scale, width_scale], mode),)


@kernel("ai.onnx", "Upsample", since=7, until=8)
def upsample_v7(x: np.ndarray, *, scales: list[float] | None, mode: str) -> tuple[np.ndarray, ...]:
    if scales is None:
        raise ValueError("Upsample: attribute scales is required in opset 7")
    return (_upsample(x, scales, mode),)


@kernel("ai.onnx", "Upsample", since=9)
def upsample(x: np.ndarray, scales: np.ndarray, *, mode: str) -> tuple[np.ndarray, ...]:
    return (_upsample(x, np.asarray(scales, dtype=np.float64).reshape(-1).tolist(), mode),)
