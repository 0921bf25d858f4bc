"""BitwiseXor: elementwise bitwise exclusive-or of two integer tensors (their two's complement bits), broadcast."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BitwiseXor", since=18)
def bitwise_xor(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("BitwiseXor", a, b)
    return (np.asarray(np.bitwise_xor(a, b), dtype=a.dtype),)
