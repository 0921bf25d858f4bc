"""Asin: elementwise arcsine in [-pi/2, pi/2]; NaN outside [-1, 1]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Asin", since=7)
def asin(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.arcsin, x),)
