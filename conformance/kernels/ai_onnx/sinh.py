"""Sinh: elementwise hyperbolic sine (+-inf on overflow)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Sinh", since=9)
def sinh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.sinh, x),)
