"""Selu: gamma * x for x > 0, gamma * alpha * (exp(x) - 1) otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Selu", since=1)
def selu(x: np.ndarray, *, alpha: float, gamma: float) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = gamma * np.where(xw > 0, xw, alpha * np.expm1(np.minimum(xw, 0)))
    return (y.astype(x.dtype, copy=False),)
