"""Round: to the nearest integer, halves to the even neighbour (IEEE roundTiesToEven: 2.5 -> 2, -0.5 -> -0)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Round", since=11)
def round_(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.rint, x),)
