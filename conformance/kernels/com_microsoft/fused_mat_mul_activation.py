"""com.microsoft FusedMatMulActivation: FusedMatMul (alpha * matmul of the transposed operands) followed by one of
onnxruntime's activation functors (as FusedGemm's), computed in the work dtype and rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import functor_activation, transposed_matmul
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "FusedMatMulActivation", since=1)
def fused_mat_mul_activation(a: np.ndarray, b: np.ndarray, *, activation: str, activation_alpha: float | None,
                             activation_axis: int | None, activation_beta: float | None,
                             activation_gamma: float | None, alpha: float, transA: int, transB: int,
                             transBatchA: int, transBatchB: int) -> tuple[np.ndarray, ...]:
    del activation_axis  # read by no elementwise functor (onnxruntime's Softmax-like activations only)
    y = transposed_matmul("FusedMatMulActivation", a, b, alpha, transA, transB, transBatchA, transBatchB)
    y = functor_activation("FusedMatMulActivation", y, activation, activation_alpha, activation_beta,
                           activation_gamma)
    return (y.astype(a.dtype),)
