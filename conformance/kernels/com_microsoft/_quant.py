"""Shared scale/zero-point handling of the com.microsoft quantization kernels."""

from __future__ import annotations

import numpy as np

QUANT_TYPES = (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int16), np.dtype(np.uint16))


def param_shape(op: str, x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None,
                axis: int | None) -> tuple[int, ...]:
    """The shape that scale and zero point take to broadcast against x (per tensor or per axis)."""
    per_tensor = scale.size == 1 and scale.ndim <= 1 and (
        zero_point is None or (zero_point.size == 1 and zero_point.ndim <= 1))
    if zero_point is not None and zero_point.shape != scale.shape and not per_tensor:
        # a one-element scale with a one-element zero point, [1] or [], is per tensor (the registry's one rule)
        raise ValueError(f"{op}: scale {scale.shape} and zero point {zero_point.shape} must share one shape")
    if axis is None or (scale.size == 1 and scale.ndim == 0):
        if scale.size != 1:
            raise ValueError(f"{op}: per-tensor scale must be a scalar, got shape {scale.shape} (set axis)")
        return ()
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{op}: axis {axis} out of range for rank {x.ndim}")
    ax = axis + x.ndim if axis < 0 else axis
    if scale.ndim != 1 or scale.shape[0] not in (1, x.shape[ax]):
        raise ValueError(f"{op}: per-axis scale must be 1-D of length {x.shape[ax]}, got shape {scale.shape}")
    shape = [1] * x.ndim
    shape[ax] = scale.shape[0]
    return tuple(shape)
