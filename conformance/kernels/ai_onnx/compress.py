"""Compress: the slices along `axis` (or, without axis, the elements of the flattened input) whose
condition entry is true; a condition shorter than the axis drops the slices past its end."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import checked_axis
from conformance.kernels.registry import kernel


def _compress(x: np.ndarray, condition: np.ndarray, axis: int | None, *, negative_axis: bool) -> np.ndarray:
    if x.ndim < 1:
        raise ValueError("Compress: input must have rank >= 1")
    if np.ndim(condition) != 1:
        raise ValueError(f"Compress: condition must be 1-D, got shape {np.shape(condition)}")
    if axis is None:
        x, ax = x.reshape(-1), 0
    elif axis < 0 and not negative_axis:
        raise ValueError(f"Compress: axis {axis} is negative (negative axes arrive with opset 11)")
    else:
        ax = checked_axis("Compress", axis, x.ndim)
    keep = np.asarray(condition).astype(bool)
    size = x.shape[ax]
    if keep[size:].any():
        raise ValueError(f"Compress: condition selects entry {int(np.argmax(keep[size:])) + size} past the "
                         f"{size} along the axis")
    return np.take(x, np.flatnonzero(keep[:size]), axis=ax)


@kernel("ai.onnx", "Compress", since=9, until=10)
def compress_v9(x: np.ndarray, condition: np.ndarray, *, axis: int | None) -> tuple[np.ndarray, ...]:
    return (_compress(x, condition, axis, negative_axis=False),)


@kernel("ai.onnx", "Compress", since=11)
def compress(x: np.ndarray, condition: np.ndarray, *, axis: int | None) -> tuple[np.ndarray, ...]:
    return (_compress(x, condition, axis, negative_axis=True),)
