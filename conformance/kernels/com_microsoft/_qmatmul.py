"""What the com.microsoft integer matmuls share: the int32 product of zero-point-shifted operands, per-tensor or
per-column scales and the bias of the last dim, in onnxruntime's order (accumulator * scale, then + bias)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.mat_mul import checked_matmul
from conformance.kernels.ai_onnx.mat_mul_integer import per_column


def per_tensor(op: str, name: str, value: np.ndarray) -> np.ndarray:
    """A parameter that must hold one element (a scalar or a 1-element 1-D tensor), as a scalar."""
    if value.size != 1 or value.ndim > 1:
        raise ValueError(f"{op}: {name} must be a scalar or a 1-element 1-D tensor, got shape {value.shape}")
    return value.reshape(())


def shifted_product(op: str, a: np.ndarray, b: np.ndarray, a_zero_point: np.ndarray | None,
                    b_zero_point: np.ndarray | None) -> np.ndarray:
    """(a - a_zero_point) @ (b - b_zero_point) in a 32-bit accumulator (wrapping); a's zero point per tensor,
    b's per tensor or per column."""
    aa = a.astype(np.int64)
    if a_zero_point is not None:
        aa = aa - per_tensor(op, "the zero point of A", a_zero_point).astype(np.int64)
    bb = b.astype(np.int64)
    if b_zero_point is not None:
        bb = bb - per_column(op, b, b_zero_point.astype(np.int64))
    return checked_matmul(op, aa, bb).astype(np.int32)


def column_scale(op: str, name: str, b: np.ndarray, value: np.ndarray) -> np.ndarray:
    """A float scale per tensor or per column of b, in float32."""
    return per_column(f"{op}: {name}", b, value.astype(np.float32))


def scale_and_bias(op: str, acc: np.ndarray, multiplier: np.ndarray, bias: np.ndarray | None,
                   b: np.ndarray) -> np.ndarray:
    """float32(acc) * multiplier (+ bias of length N, B's last dim, along the last dim; B of rank >= 2), as
    onnxruntime's output processor."""
    n = b.shape[-1] if b.ndim >= 2 else -1
    y = acc.astype(np.float32) * multiplier.astype(np.float32)
    if bias is not None:
        if n < 0 or bias.ndim != 1 or bias.shape[0] != n:
            raise ValueError(f"{op}: bias must be 1-D of the last dim of a B of rank >= 2, got {bias.shape} for B "
                             f"{b.shape}")
        y = y + bias.astype(np.float32)
    return np.asarray(y, np.float32)


def one_row_dropped(y: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The product of a 1-D A computed as one row ([1, K]): that row's axis removed again, as numpy.matmul does."""
    if a.ndim != 1:
        return y
    return y[..., 0, :] if b.ndim >= 2 else y[..., 0]
