"""Atan: elementwise arctangent in [-pi/2, pi/2]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Atan", since=7)
def atan(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.arctan, x),)
