"""com.microsoft QLinearConcat: each input requantized from its own scale and zero point to Y's, then concatenated.

The inputs come in triples (tensor, scale, zero point) after Y_scale and Y_zero_point. onnxruntime moves each tensor
through a 256-entry table (dequantized in float32, divided by Y_scale, rounded half to even, plus Y_zero_point,
saturated); a tensor whose scale and zero point equal Y's comes through unchanged, which the table also gives.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, requantized, scalar_param
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearConcat", since=1)
def q_linear_concat(y_scale: np.ndarray, y_zero_point: np.ndarray, *inputs: np.ndarray,
                    axis: int) -> tuple[np.ndarray, ...]:
    op = "QLinearConcat"
    dtype = eight_bit(op, y_zero_point)
    ys, yz = scalar_param(op, "Y_scale", y_scale), scalar_param(op, "Y_zero_point", y_zero_point, dtype)
    if len(inputs) == 0 or len(inputs) % 3 != 0:
        raise ValueError(f"{op}: the inputs after Y_zero_point must come in (tensor, scale, zero point) triples, "
                         f"got {len(inputs)}")
    parts = []
    for k in range(0, len(inputs), 3):
        x, xs, xz = inputs[k], inputs[k + 1], inputs[k + 2]
        if x.dtype != dtype:
            raise ValueError(f"{op}: input {k // 3} has type {x.dtype}, Y is {dtype}")
        if xs.dtype != np.float32:
            raise ValueError(f"{op}: the scale of input {k // 3} must be float, got {xs.dtype}")
        parts.append(requantized(op, x, scalar_param(op, f"scale {k // 3}", xs),
                                 scalar_param(op, f"zero point {k // 3}", xz, dtype), ys, yz))
    rank = parts[0].ndim
    if not -rank <= axis < rank:
        raise ValueError(f"{op}: axis {axis} out of range for rank {rank}")
    ax = axis % rank
    for k, p in enumerate(parts):
        if p.ndim != rank or p.shape[:ax] + p.shape[ax + 1:] != parts[0].shape[:ax] + parts[0].shape[ax + 1:]:
            raise ValueError(f"{op}: input {k} of shape {p.shape} does not concatenate with {parts[0].shape} "
                             f"along axis {axis}")
    return (np.concatenate(parts, axis=ax),)
