"""BitwiseAnd: elementwise bitwise and of two integer tensors (two's complement bits), with numpy broadcasting."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BitwiseAnd", since=18)
def bitwise_and(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("BitwiseAnd", a, b)
    return (np.asarray(np.bitwise_and(a, b), dtype=a.dtype),)
