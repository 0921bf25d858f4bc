"""Atanh: elementwise inverse hyperbolic tangent; +-inf at +-1, NaN outside [-1, 1]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Atanh", since=9)
def atanh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.arctanh, x),)
