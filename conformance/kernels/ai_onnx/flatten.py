"""Flatten: reshape to 2-D, [prod(shape[:axis]), prod(shape[axis:])]."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Flatten", since=1)
def flatten(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    if not -x.ndim <= axis <= x.ndim:
        raise ValueError(f"Flatten: axis {axis} out of range for rank {x.ndim}")
    if axis < 0:
        axis += x.ndim
    return (x.reshape(math.prod(x.shape[:axis]), math.prod(x.shape[axis:])).copy(),)
