"""com.microsoft.nchwc MaxPool: ai.onnx MaxPool (2-d windows) of a blocked tensor, the output blocked."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.max_pool import max_pool as onnx_max_pool
from conformance.kernels.com_microsoft_nchwc._nchwc import blocks_of, pool_pads, to_blocks, unblock
from conformance.kernels.registry import kernel


@kernel("com.microsoft.nchwc", "MaxPool", since=1)
def max_pool(x: np.ndarray, *, auto_pad: str, ceil_mode: int, dilations: list[int], kernel_shape: list[int],
             pads: list[int], storage_order: int, strides: list[int]) -> tuple[np.ndarray, ...]:
    blocks_of("MaxPool", x)
    if len(kernel_shape) != 2:
        raise ValueError(f"MaxPool: kernel_shape must have 2 dims, got {kernel_shape}")
    if any(p >= k for p, k in zip(pads, list(kernel_shape) * 2, strict=True)):
        raise ValueError(f"MaxPool: every pad must be smaller than the kernel, got pads {pads}, kernel {kernel_shape}")
    (y,) = onnx_max_pool(unblock(x), kernel_shape=kernel_shape, auto_pad="NOTSET",
                         pads=pool_pads(x.shape[2:], kernel_shape, strides, auto_pad, pads), strides=strides,
                         dilations=dilations, ceil_mode=ceil_mode, storage_order=storage_order, requested_outputs=1)
    return (to_blocks(y),)
