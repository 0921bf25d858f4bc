"""BitwiseOr: elementwise bitwise or of two integer tensors (two's complement bits), with numpy broadcasting."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BitwiseOr", since=18)
def bitwise_or(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("BitwiseOr", a, b)
    return (np.asarray(np.bitwise_or(a, b), dtype=a.dtype),)
