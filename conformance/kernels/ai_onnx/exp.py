"""Exp: elementwise e**x (inf on overflow, 0 on underflow)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Exp", since=1)
def exp(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.exp, x),)
