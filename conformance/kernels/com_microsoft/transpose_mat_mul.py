"""com.microsoft TransposeMatMul: FusedMatMul's older name, without the batch transpositions."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import transposed_matmul
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "TransposeMatMul", since=1)
def transpose_mat_mul(a: np.ndarray, b: np.ndarray, *, alpha: float, transA: int, transB: int
                      ) -> tuple[np.ndarray, ...]:
    return (transposed_matmul("TransposeMatMul", a, b, alpha, transA, transB, 0, 0).astype(a.dtype),)
