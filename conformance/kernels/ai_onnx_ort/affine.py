"""Affine (onnxruntime's default domain, onnx's experimental op): y = alpha * x + beta."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "Affine", since=1)
def affine(x: np.ndarray, *, alpha: float, beta: float) -> tuple[np.ndarray, ...]:
    return ((x * np.asarray(alpha, x.dtype) + np.asarray(beta, x.dtype)).astype(x.dtype),)
