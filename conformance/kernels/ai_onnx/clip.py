"""Clip: min(max(x, min), max); bounds are attributes before opset 11, optional inputs from 11."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _clip(x: np.ndarray, lo: np.ndarray | float | None, hi: np.ndarray | float | None) -> np.ndarray:
    y = x
    if lo is not None:
        y = np.maximum(y, np.asarray(lo).astype(x.dtype))
    if hi is not None:
        y = np.minimum(y, np.asarray(hi).astype(x.dtype))
    return x.copy() if y is x else y.astype(x.dtype, copy=False)


@kernel("ai.onnx", "Clip", since=1, until=5)
def clip_v1(x: np.ndarray, *, min: float | None, max: float | None) -> tuple[np.ndarray, ...]:
    # opset 1 has no default bounds: an absent one does not clip
    return (_clip(x, min, max),)


@kernel("ai.onnx", "Clip", since=6, until=10)
def clip_attr(x: np.ndarray, *, min: float, max: float) -> tuple[np.ndarray, ...]:
    return (_clip(x, min, max),)


@kernel("ai.onnx", "Clip", since=11)
def clip(x: np.ndarray, lo: np.ndarray | None, hi: np.ndarray | None) -> tuple[np.ndarray, ...]:
    for name, v in (("min", lo), ("max", hi)):
        if v is not None and np.ndim(v) != 0 and np.size(v) != 1:
            raise ValueError(f"Clip: input {name} must be a scalar, got shape {np.shape(v)}")
    return (_clip(x, None if lo is None else np.reshape(lo, ()), None if hi is None else np.reshape(hi, ())),)
