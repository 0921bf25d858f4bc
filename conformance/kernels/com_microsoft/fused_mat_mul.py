"""com.microsoft FusedMatMul: alpha * numpy.matmul(A', B'), where transBatchX moves X's dim 0 behind its batch
dims (permutation [1, ..., r-2, 0, r-1]) and then transX swaps the last two dims; a 1-D operand is never
transposed. Computed in the work dtype and rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import transposed_matmul
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "FusedMatMul", since=1)
def fused_mat_mul(a: np.ndarray, b: np.ndarray, *, alpha: float, transA: int, transB: int, transBatchA: int,
                  transBatchB: int) -> tuple[np.ndarray, ...]:
    y = transposed_matmul("FusedMatMul", a, b, alpha, transA, transB, transBatchA, transBatchB)
    return (y.astype(a.dtype),)
