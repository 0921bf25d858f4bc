"""ThresholdedRelu-1 (onnxruntime's default domain, onnx's experimental version): onnx's version 10, y = x where
x > alpha, else 0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.thresholded_relu import thresholded_relu as onnx_thresholded_relu
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "ThresholdedRelu", since=1)
def thresholded_relu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    return onnx_thresholded_relu(x, alpha=alpha)
