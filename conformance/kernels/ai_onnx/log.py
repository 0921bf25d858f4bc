"""Log: elementwise natural logarithm; -inf at 0, NaN below 0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import float_unary
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Log", since=1)
def log(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (float_unary(np.log, x),)
