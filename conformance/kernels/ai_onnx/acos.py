"""Acos: elementwise arccosine in [0, pi]; NaN outside [-1, 1]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Acos", since=7)
def acos(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.arccos, x),)
