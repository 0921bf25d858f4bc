"""Hardmax: 1 at the first maximum, 0 elsewhere; opset 1/11 per row of the input coerced to 2-D at `axis`,
opset 13 along `axis`."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import as_rows, checked_axis
from conformance.kernels.registry import kernel


def _hardmax(x: np.ndarray, axis: int) -> np.ndarray:
    first = np.argmax(x, axis=axis, keepdims=True)  # argmax gives the first of equal maxima
    y = np.zeros_like(x)
    np.put_along_axis(y, first, 1, axis=axis)
    return y


@kernel("ai.onnx", "Hardmax", since=1, until=12)
def hardmax_2d(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    ax = checked_axis("Hardmax", axis, x.ndim)
    return (_hardmax(as_rows(x, ax), 1).reshape(x.shape),)


@kernel("ai.onnx", "Hardmax", since=13)
def hardmax(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    return (_hardmax(x, checked_axis("Hardmax", axis, x.ndim)),)
