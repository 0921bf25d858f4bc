"""ConvInteger (10): Conv's kernel on the zero-point-shifted operands in int32 (the sums wrap in 32 bits, as the
spec allows); x_zero_point is per tensor, w_zero_point per tensor or per output channel."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.conv import conv
from conformance.kernels.registry import kernel


def shifted(op: str, x: np.ndarray, x_zero_point: np.ndarray | None, w: np.ndarray,
            w_zero_point: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """x - x_zero_point and w - w_zero_point (per tensor, or per output channel for w) as int32."""
    xs, ws = x.astype(np.int32), w.astype(np.int32)
    if x_zero_point is not None:
        if x_zero_point.size != 1 or x_zero_point.ndim > 1:
            raise ValueError(f"{op}: x's zero point must be a scalar, got {x_zero_point.shape}")
        xs = xs - x_zero_point.astype(np.int32).reshape(())
    if w_zero_point is not None:
        if w_zero_point.size == 1 and w_zero_point.ndim <= 1:
            ws = ws - w_zero_point.astype(np.int32).reshape(())
        elif w_zero_point.shape == (w.shape[0],):
            ws = ws - w_zero_point.astype(np.int32).reshape((-1,) + (1,) * (w.ndim - 1))
        else:
            raise ValueError(f"{op}: w's zero point {w_zero_point.shape} is neither a scalar nor one per filter")
    return xs, ws


@kernel("ai.onnx", "ConvInteger", since=10)
def conv_integer(x: np.ndarray, w: np.ndarray, x_zero_point: np.ndarray | None, w_zero_point: np.ndarray | None, *,
                 auto_pad: str, dilations: list[int], group: int, kernel_shape: list[int], pads: list[int],
                 strides: list[int]) -> tuple[np.ndarray, ...]:
    xs, ws = shifted("ConvInteger", x, x_zero_point, w, w_zero_point)
    return conv(xs, ws, None, auto_pad=auto_pad, dilations=dilations, group=group, kernel_shape=kernel_shape,
                pads=pads, strides=strides)
