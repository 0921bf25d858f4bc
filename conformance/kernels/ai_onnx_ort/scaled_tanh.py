"""ScaledTanh (onnxruntime's default domain, onnx's experimental op): y = alpha * tanh(beta * x)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "ScaledTanh", since=1)
def scaled_tanh(x: np.ndarray, *, alpha: float | None, beta: float | None) -> tuple[np.ndarray, ...]:
    if alpha is None or beta is None:
        raise ValueError("ScaledTanh: alpha and beta are required")
    xw = x.astype(work_dtype(x), copy=False)
    return ((np.asarray(alpha, xw.dtype) * np.tanh(np.asarray(beta, xw.dtype) * xw)).astype(x.dtype),)
