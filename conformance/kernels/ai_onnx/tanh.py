"""Tanh: elementwise hyperbolic tangent."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Tanh", since=1)
def tanh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.tanh(x),)
