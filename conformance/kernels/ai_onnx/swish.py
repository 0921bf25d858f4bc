"""Swish: x * sigmoid(alpha * x)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import swish_of, work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Swish", since=24)
def swish(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    return (swish_of(x.astype(work_dtype(x), copy=False), alpha).astype(x.dtype, copy=False),)
