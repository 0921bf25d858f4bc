"""ParametricSoftplus (onnxruntime's default domain, onnx's experimental op): y = alpha * ln(exp(beta * x) + 1)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "ParametricSoftplus", since=1)
def parametric_softplus(x: np.ndarray, *, alpha: float | None, beta: float | None) -> tuple[np.ndarray, ...]:
    if alpha is None or beta is None:  # onnxruntime's kernel needs both ("No attribute with name:'alpha'")
        raise ValueError("ParametricSoftplus: alpha and beta are required")
    xw = x.astype(work_dtype(x), copy=False)
    return ((np.asarray(alpha, xw.dtype) * np.logaddexp(0, np.asarray(beta, xw.dtype) * xw)).astype(x.dtype),)
