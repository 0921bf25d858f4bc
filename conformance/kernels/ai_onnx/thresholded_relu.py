"""ThresholdedRelu: x for x > alpha, 0 otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "ThresholdedRelu", since=10)
def thresholded_relu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    above = x.astype(np.float64) > alpha  # compared exactly: alpha is not rounded to a half-precision x
    return (np.where(above, x, np.zeros((), x.dtype)),)
