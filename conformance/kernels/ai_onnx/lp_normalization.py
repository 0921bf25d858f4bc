"""LpNormalization (1, 22): x / ||x||_p along one axis (p 1 or 2); where the norm is 0 the output is 0.
Half precision is computed in float32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "LpNormalization", since=1)
def lp_normalization(x: np.ndarray, *, axis: int, p: int) -> tuple[np.ndarray, ...]:
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"LpNormalization: axis {axis} is out of range for rank {x.ndim}")
    if p not in (1, 2):
        raise ValueError(f"LpNormalization: p must be 1 or 2, got {p}")
    xw = x.astype(work_dtype(x), copy=False)
    norm = np.sum(np.abs(xw), axis=axis, keepdims=True) if p == 1 else np.sqrt(np.sum(xw * xw, axis=axis,
                                                                                      keepdims=True))
    safe = np.where(norm == 0, np.ones_like(norm), norm)
    return (np.where(norm == 0, np.zeros_like(xw), xw / safe).astype(x.dtype),)
