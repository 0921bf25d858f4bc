"""Gemm (tengine, op id 31): Y = alpha * A' · B' + beta * C with optional transposes (ONNX Gemm)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Gemm", since=1)
def gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, *, alpha: float, beta: float, transA: int,
         transB: int) -> tuple[np.ndarray, ...]:
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"Gemm: A {a.shape} and B {b.shape} must be matrices")
    work = np.promote_types(a.dtype, np.float32)
    left = (a.T if transA else a).astype(work, copy=False)
    right = (b.T if transB else b).astype(work, copy=False)
    if left.shape[1] != right.shape[0]:
        raise ValueError(f"Gemm: inner dims differ, {left.shape} x {right.shape}")
    y = np.asarray(alpha, work) * (left @ right)
    if c is not None:
        y = y + np.asarray(beta, work) * np.broadcast_to(c.astype(work, copy=False), y.shape)
    return (y.astype(a.dtype, copy=False),)
