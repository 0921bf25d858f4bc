"""BitShift: X shifted by Y bits, LEFT or RIGHT, with numpy broadcasting.

A right shift of a signed X is arithmetic (the sign fills the vacated bits); a left shift discards the bits
moved out of the top, the sign bit included (computed on the unsigned bit pattern, so nothing overflows).
A shift by a negative amount or by T's width or more leaves only the fill: -1 for a right shift of a
negative X, else 0 (Version 28's rule; version 11 leaves it unsaid and the registry applies it there too).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BitShift", since=11)
def bit_shift(x: np.ndarray, y: np.ndarray, *, direction: str) -> tuple[np.ndarray, ...]:
    if direction not in ("LEFT", "RIGHT"):
        raise ValueError(f"BitShift: direction must be LEFT or RIGHT, got {direction!r}")
    shape = broadcast_shape("BitShift", x, y)
    bits = 8 * x.dtype.itemsize
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    in_range = (y >= 0) & (y < bits)
    amount = np.where(in_range, y, 0).astype(unsigned)
    if direction == "LEFT":
        shifted = np.left_shift(x.view(unsigned), amount).view(x.dtype)
        fill = np.zeros((), dtype=x.dtype)
    else:
        shifted = np.right_shift(x, amount.astype(x.dtype))  # numpy shifts signed integers arithmetically
        fill = np.where(x < 0, -1, 0).astype(x.dtype) if x.dtype.kind == "i" else np.zeros((), dtype=x.dtype)
    return (np.asarray(np.broadcast_to(np.where(in_range, shifted, fill), shape), dtype=x.dtype),)
