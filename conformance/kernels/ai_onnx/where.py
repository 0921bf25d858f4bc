"""Where: elementwise choice, X where condition holds and Y elsewhere, with numpy broadcasting of all three."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Where", since=9)
def where(condition: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    if condition.dtype != np.bool_:
        raise ValueError(f"Where: condition must be bool, got {condition.dtype}")
    broadcast_shape("Where", condition, x, y)
    return (np.asarray(np.where(condition, x, y), dtype=x.dtype),)
