"""com.microsoft.nchwc GlobalAveragePool: ai.onnx GlobalAveragePool of a blocked tensor (each channel's mean over
its pixels)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft_nchwc._nchwc import blocks_of, to_blocks, unblock
from conformance.kernels.registry import kernel


@kernel("com.microsoft.nchwc", "GlobalAveragePool", since=1)
def global_average_pool(x: np.ndarray) -> tuple[np.ndarray, ...]:
    blocks_of("GlobalAveragePool", x)
    y = np.mean(unblock(x), axis=(2, 3), keepdims=True, dtype=np.float32)
    return (to_blocks(y.astype(x.dtype)),)
