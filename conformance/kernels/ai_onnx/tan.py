"""Tan: elementwise tangent (radians)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Tan", since=7)
def tan(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.tan, x),)
