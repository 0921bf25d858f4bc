"""MatMulInteger (10): (A - a_zero_point) @ (B - b_zero_point) in int32, which wraps like the spec's 32-bit
accumulator. A 1-D a_zero_point of length M is per row of a 2-D A; a 1-D b_zero_point of length N per column
of a 2-D B."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.mat_mul import checked_matmul
from conformance.kernels.registry import kernel


def per_row(op: str, a: np.ndarray, value: np.ndarray) -> np.ndarray:
    """A quantization parameter of `a` shaped to broadcast against it: one element, per row ([M] -> [M, 1] for a
    2-D `a`) or `a`'s shape with the last dim 1."""
    if value.size == 1:
        return value.reshape(())
    if a.ndim == 2 and value.shape == (a.shape[0],):
        return value.reshape(-1, 1)
    if a.ndim >= 2 and value.shape == (*a.shape[:-1], 1):
        return value
    raise ValueError(f"{op}: a parameter of shape {value.shape} fits neither per tensor nor per row of {a.shape}")


def per_column(op: str, b: np.ndarray, value: np.ndarray) -> np.ndarray:
    """A quantization parameter of `b` shaped to broadcast against it: one element, per column ([N] for a 2-D
    `b`) or `b`'s shape with dim -2 of 1."""
    if value.size == 1:
        return value.reshape(())
    if b.ndim == 2 and value.shape == (b.shape[1],):
        return value
    if b.ndim >= 2 and value.shape == (*b.shape[:-2], 1, b.shape[-1]):
        return value
    raise ValueError(f"{op}: a parameter of shape {value.shape} fits neither per tensor nor per column of {b.shape}")


def integer_product(op: str, a: np.ndarray, b: np.ndarray, a_zero_point: np.ndarray | None,
                    b_zero_point: np.ndarray | None) -> np.ndarray:
    """(a - a_zero_point) @ (b - b_zero_point) as int32."""
    aa = a.astype(np.int32)
    if a_zero_point is not None:
        aa = aa - per_row(op, a, a_zero_point.astype(np.int32))
    bb = b.astype(np.int32)
    if b_zero_point is not None:
        bb = bb - per_column(op, b, b_zero_point.astype(np.int32))
    return checked_matmul(op, aa, bb).astype(np.int32, copy=False)


@kernel("ai.onnx", "MatMulInteger", since=10)
def mat_mul_integer(a: np.ndarray, b: np.ndarray, a_zero_point: np.ndarray | None,
                    b_zero_point: np.ndarray | None) -> tuple[np.ndarray, ...]:
    return (integer_product("MatMulInteger", a, b, a_zero_point, b_zero_point),)
