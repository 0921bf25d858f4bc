"""GreaterOrEqual: elementwise A >= B (bool result), with numpy broadcasting."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "GreaterOrEqual", since=12)
def greater_or_equal(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("GreaterOrEqual", a, b)
    return (np.asarray(np.greater_equal(a, b), dtype=np.bool_),)
