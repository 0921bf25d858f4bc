"""Acosh: elementwise inverse hyperbolic cosine; NaN below 1."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Acosh", since=9)
def acosh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.arccosh, x),)
