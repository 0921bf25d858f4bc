"""Sqrt: elementwise square root; NaN below 0 (-0 stays -0)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Sqrt", since=1)
def sqrt(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.sqrt, x),)
