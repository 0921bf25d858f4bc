"""BitwiseNot: every bit flipped (~x: 255 - x for uint8, -x - 1 for signed integers)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BitwiseNot", since=18)
def bitwise_not(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.invert(x)),)
