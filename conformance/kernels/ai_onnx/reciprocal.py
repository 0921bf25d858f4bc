"""Reciprocal: elementwise 1 / x; +-inf at +-0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Reciprocal", since=1)
def reciprocal(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.reciprocal, x),)
