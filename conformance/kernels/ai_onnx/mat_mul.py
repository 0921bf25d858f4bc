"""MatMul (1, 9, 13): numpy.matmul semantics; half precision accumulates in float32, integers wrap in their width."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def checked_matmul(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b` with numpy's 1-D promotion and batch broadcasting; shapes that do not fit raise ValueError."""
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError(f"{op}: A {a.shape} and B {b.shape} must both have rank >= 1")
    k_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if a.shape[-1] != k_b:
        raise ValueError(f"{op}: A {a.shape} and B {b.shape} differ in the contracted dim")
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError as e:
        raise ValueError(f"{op}: the batch dims of A {a.shape} and B {b.shape} do not broadcast") from e
    return np.asarray(np.matmul(a, b))


@kernel("ai.onnx", "MatMul", since=1)
def mat_mul(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    wt = work_dtype(a)
    y = checked_matmul("MatMul", a.astype(wt, copy=False), b.astype(wt, copy=False))
    return (y.astype(a.dtype, copy=False),)
