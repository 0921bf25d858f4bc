"""com.microsoft FusedGemm: ai.onnx Gemm (opset 7 on: C broadcast to (M, N)) followed by one of onnxruntime's CPU
activation functors. Floats compute in the work dtype and round once; integers (onnxruntime registers float only)
compute the Gemm as ai.onnx Gemm does and the activation in float64, truncated back."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.ai_onnx.gemm import gemm
from conformance.kernels.com_microsoft._fused import activate_any
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "FusedGemm", since=1)
def fused_gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, *, activation: str | None,
               activation_alpha: float | None, activation_beta: float | None, activation_gamma: float | None,
               alpha: float, beta: float, transA: int, transB: int) -> tuple[np.ndarray, ...]:
    wt = work_dtype(a)
    (y,) = gemm(a.astype(wt), b.astype(wt), None if c is None else c.astype(wt), alpha=alpha, beta=beta,
                transA=transA, transB=transB)
    y = activate_any("FusedGemm", y, activation, activation_alpha, activation_beta, activation_gamma)
    return (y.astype(a.dtype),)
