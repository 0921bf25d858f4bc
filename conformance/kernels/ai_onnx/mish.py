"""Mish: x * tanh(softplus(x)) = x * tanh(ln(1 + exp(x)))."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Mish", since=18)
def mish(x: np.ndarray) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = xw * np.tanh(np.logaddexp(0, xw))  # logaddexp(0, x) = ln(1 + e^x) without overflow
    return (y.astype(x.dtype, copy=False),)
