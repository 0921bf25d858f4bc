"""com.microsoft.nchwc AveragePool: ai.onnx AveragePool (2-d windows) of a blocked tensor, the output blocked."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.average_pool import average_pool as onnx_average_pool
from conformance.kernels.com_microsoft_nchwc._nchwc import blocks_of, pool_pads, to_blocks, unblock
from conformance.kernels.registry import kernel


@kernel("com.microsoft.nchwc", "AveragePool", since=1)
def average_pool(x: np.ndarray, *, auto_pad: str, ceil_mode: int, count_include_pad: int, dilations: list[int],
                 kernel_shape: list[int], pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    blocks_of("AveragePool", x)
    if len(kernel_shape) != 2:
        raise ValueError(f"AveragePool: kernel_shape must have 2 dims, got {kernel_shape}")
    if any(p >= k for p, k in zip(pads, list(kernel_shape) * 2, strict=True)):
        raise ValueError(f"AveragePool: every pad must be below the kernel, got pads {pads}, kernel {kernel_shape}")
    (y,) = onnx_average_pool(unblock(x), kernel_shape=kernel_shape, auto_pad="NOTSET",
                             pads=pool_pads(x.shape[2:], kernel_shape, strides, auto_pad, pads), strides=strides,
                             count_include_pad=count_include_pad, ceil_mode=ceil_mode, dilations=dilations)
    return (to_blocks(y),)
