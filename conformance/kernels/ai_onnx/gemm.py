"""Gemm: alpha * A' @ B' + beta * C; opset 1/6 take a `broadcast` flag for C, 7+ broadcast C to (M, N)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, alpha: float, beta: float,
          trans_a: int, trans_b: int) -> np.ndarray:
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"Gemm: A and B must be 2-D, got {a.shape} and {b.shape}")
    wt = work_dtype(a)
    aa = (a.T if trans_a else a).astype(wt, copy=False)
    bb = (b.T if trans_b else b).astype(wt, copy=False)
    if aa.shape[1] != bb.shape[0]:
        raise ValueError(f"Gemm: inner dims differ, A' {aa.shape} and B' {bb.shape}")
    y: np.ndarray = aa @ bb
    cc = None
    if c is not None and beta != 0:
        cc = c.astype(wt, copy=False)
        try:
            np.broadcast_to(cc, y.shape)
        except ValueError as e:
            raise ValueError(f"Gemm: C {c.shape} does not broadcast to {y.shape}") from e
    if wt.kind != "f" and (alpha != 1 or (cc is not None and beta != 1)):
        return _integer_scaled(y, cc, alpha, beta).astype(a.dtype)
    if alpha != 1:
        y = y * np.asarray(alpha, dtype=wt)
    if cc is not None:
        y = y + (cc if beta == 1 else cc * np.asarray(beta, dtype=wt))
    return y.astype(a.dtype, copy=False)


def _integer_scaled(product: np.ndarray, c: np.ndarray | None, alpha: float, beta: float) -> np.ndarray:
    """alpha * A'B' + beta * C of integers with a float alpha or beta: the value of the whole expression, converted
    once to the integer type, toward zero (the text states one expression for Y; rounding each term on its own, the
    reading gemm_r1, can land one away)."""
    value = product.astype(np.float64) * alpha
    if c is not None:
        value = value + c.astype(np.float64) * beta
    return np.trunc(value)


@kernel("ai.onnx", "Gemm", since=1, until=6)
def gemm_legacy(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, alpha: float, beta: float, transA: int, transB: int,
                broadcast: int) -> tuple[np.ndarray, ...]:
    m = a.shape[1] if transA else a.shape[0]
    n = b.shape[0] if transB else b.shape[1]
    if not broadcast and c.shape != (m, n):
        raise ValueError(f"Gemm: C must have shape {(m, n)} when broadcast=0, got {c.shape}")
    return (_gemm(a, b, c, alpha, beta, transA, transB),)


@kernel("ai.onnx", "Gemm", since=7)
def gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, *, alpha: float, beta: float, transA: int,
         transB: int) -> tuple[np.ndarray, ...]:
    return (_gemm(a, b, c, alpha, beta, transA, transB),)
