"""Cos: elementwise cosine (radians)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Cos", since=7)
def cos(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.cos, x),)
