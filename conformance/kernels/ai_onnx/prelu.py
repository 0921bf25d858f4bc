"""PRelu: x for x >= 0, slope * x otherwise; slope broadcasts to x (unidirectionally from opset 7)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _fits(x: np.ndarray, slope: np.ndarray) -> bool:
    try:
        return np.broadcast_shapes(x.shape, slope.shape) == x.shape
    except ValueError:
        return False


@kernel("ai.onnx", "PRelu", since=1)
def prelu(x: np.ndarray, slope: np.ndarray) -> tuple[np.ndarray, ...]:
    if not _fits(x, slope):
        # opset 1/6 let a 1-D slope of C values act per channel (axis 1)
        if slope.ndim == 1 and x.ndim >= 2 and slope.shape[0] == x.shape[1]:
            slope = slope.reshape((-1,) + (1,) * (x.ndim - 2))
        else:
            raise ValueError(f"PRelu: slope {slope.shape} does not broadcast to X {x.shape}")
    y = np.where(x < 0, x * slope, x)
    return (y.astype(x.dtype, copy=False),)
