"""Cosh: elementwise hyperbolic cosine (inf on overflow)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Cosh", since=9)
def cosh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.cosh, x),)
