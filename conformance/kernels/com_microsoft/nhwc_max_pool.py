"""com.microsoft NhwcMaxPool: ai.onnx MaxPool (opset 12: dilations, ceil_mode, auto_pad) of 8-bit integers with the
channels last in x and y (N x D1 x ... x Dn x C); the padding never wins (it is the type's lowest value)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.max_pool import max_pool
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "NhwcMaxPool", since=1)
def nhwc_max_pool(x: np.ndarray, *, auto_pad: str, ceil_mode: int, dilations: list[int], kernel_shape: list[int],
                  pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"NhwcMaxPool: x must be N x spatial... x C, got {x.shape}")
    (y,) = max_pool(np.moveaxis(x, -1, 1), kernel_shape=kernel_shape, auto_pad=auto_pad, pads=pads, strides=strides,
                    dilations=dilations, ceil_mode=ceil_mode, storage_order=0, requested_outputs=1)
    return (np.ascontiguousarray(np.moveaxis(y, 1, -1)),)
