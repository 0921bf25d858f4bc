"""Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Celu", since=12)
def celu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    if alpha == 0:
        raise ValueError("Celu: alpha must not be 0 (it divides x)")
    xw = x.astype(work_dtype(x), copy=False)
    # the exponential only where x <= 0 (x / alpha <= 0 when alpha > 0): no overflow for large positive x
    negative = np.where(xw <= 0, xw, 0) if alpha > 0 else xw
    y = np.maximum(xw, 0) + np.minimum(0, alpha * np.expm1(negative / alpha))
    return (y.astype(x.dtype, copy=False),)
