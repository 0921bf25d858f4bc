"""Floor: elementwise floor; integral values, +-0, NaN and infinities come back unchanged."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Floor", since=1)
def floor(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.floor, x),)
