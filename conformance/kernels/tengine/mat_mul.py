"""MatMul (tengine, op id 91): matrix product over the last two axes of two tensors of equal rank 2 to 4."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "MatMul", since=1)
def mat_mul(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    if not 2 <= a.ndim <= 4 or a.ndim != b.ndim:
        raise ValueError(f"MatMul: inputs {a.shape} and {b.shape} need the same rank, 2 to 4")
    if a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
        raise ValueError(f"MatMul: {a.shape} and {b.shape} do not multiply")
    work = np.promote_types(a.dtype, np.float32)
    y = np.matmul(a.astype(work, copy=False), b.astype(work, copy=False))
    return (y.astype(a.dtype, copy=False),)
