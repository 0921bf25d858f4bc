"""Asinh: elementwise inverse hyperbolic sine."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Asinh", since=9)
def asinh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.arcsinh, x),)
