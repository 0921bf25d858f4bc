"""SwiGLU: Swish_alpha(A) * B, A and B of one shape (no broadcasting)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import swish_of, work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SwiGLU", since=28)
def swi_glu(a: np.ndarray, b: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    if a.shape != b.shape:
        raise ValueError(f"SwiGLU: A {list(a.shape)} and B {list(b.shape)} must have one shape")
    work = work_dtype(a)
    y = swish_of(a.astype(work, copy=False), alpha) * b.astype(work, copy=False)
    return (y.astype(a.dtype, copy=False),)
