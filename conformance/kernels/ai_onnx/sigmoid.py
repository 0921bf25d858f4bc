"""Sigmoid: 1 / (1 + exp(-x)), computed without overflow for large |x|."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Sigmoid", since=1)
def sigmoid(x: np.ndarray) -> tuple[np.ndarray, ...]:
    # sigmoid(x) = (1 + tanh(x / 2)) / 2: one transcendental, no overflow for any x
    y = np.multiply(x, 0.5, dtype=work_dtype(x), out=np.empty(x.shape, work_dtype(x)))  # an array even for 0-d
    np.tanh(y, out=y)
    y += 1
    y *= 0.5
    return (y.astype(x.dtype, copy=False),)
