"""MatMulInteger (10): (A - a_zero_point) @ (B - b_zero_point) in int32, which wraps like the spec's 32-bit
accumulator. A 1-D a_zero_point of length M is per row of a 2-D A; a 1-D b_zero_point of length N per column
of a 2-D B."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.mat_mul import checked_matmul
from conformance.kernels.registry import kernel


def row_zero_point(op: str, a: np.ndarray, zero_point: np.ndarray | None) -> np.ndarray:
    """A's zero point shaped to broadcast against A: one element, per row ([M] -> [M, 1] for a 2-D A) or A's
    shape with the last dim 1."""
    if zero_point is None:
        return np.zeros((), np.int32)
    z = zero_point.astype(np.int32)
    if z.size == 1:
        return z.reshape(())
    if a.ndim == 2 and z.shape == (a.shape[0],):
        return z.reshape(-1, 1)
    if a.ndim >= 2 and z.shape == (*a.shape[:-1], 1):
        return z
    raise ValueError(f"{op}: a zero point of shape {zero_point.shape} fits neither per tensor nor per row of {a.shape}")


def column_zero_point(op: str, b: np.ndarray, zero_point: np.ndarray | None) -> np.ndarray:
    """B's zero point shaped to broadcast against B: one element, per column ([N]) or B's shape with dim -2 of 1."""
    if zero_point is None:
        return np.zeros((), np.int32)
    z = zero_point.astype(np.int32)
    if z.size == 1:
        return z.reshape(())
    if (b.ndim == 2 and z.shape == (b.shape[1],)) or (b.ndim >= 2 and z.shape == (*b.shape[:-2], 1, b.shape[-1])):
        return z
    raise ValueError(f"{op}: a zero point of shape {zero_point.shape} fits neither per tensor nor per column of "
                     f"{b.shape}")


def integer_product(op: str, a: np.ndarray, b: np.ndarray, a_zero_point: np.ndarray | None,
                    b_zero_point: np.ndarray | None) -> np.ndarray:
    """(a - a_zero_point) @ (b - b_zero_point) as int32."""
    aa = a.astype(np.int32) - row_zero_point(op, a, a_zero_point)
    bb = b.astype(np.int32) - column_zero_point(op, b, b_zero_point)
    return checked_matmul(op, aa, bb).astype(np.int32, copy=False)


@kernel("ai.onnx", "MatMulInteger", since=10)
def mat_mul_integer(a: np.ndarray, b: np.ndarray, a_zero_point: np.ndarray | None,
                    b_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    return (integer_product("MatMulInteger", a, b, a_zero_point, b_zero_point),)
